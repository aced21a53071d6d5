from django.contrib import admin
from django.urls import include, path

from versailles_site.headers import robots_txt

urlpatterns = [
    path("robots.txt", robots_txt),
    path("admin/", admin.site.urls),
    # Provider webhooks: /anymail/<provider>/inbound/ and .../tracking/
    path("anymail/", include("anymail.urls")),
    # set_language: the language switch of the public and moderators' pages.
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("games.urls")),
]
