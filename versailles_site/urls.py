from django.contrib import admin
from django.urls import include, path

from versailles_site.headers import robots_txt

urlpatterns = [
    path("robots.txt", robots_txt),
    path("admin/", admin.site.urls),
    # Provider webhooks: /anymail/<provider>/inbound/ and .../tracking/
    path("anymail/", include("anymail.urls")),
    path("", include("games.urls")),
]
