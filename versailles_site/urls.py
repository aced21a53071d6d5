from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    # Provider webhooks: /anymail/<provider>/inbound/ and .../tracking/
    path("anymail/", include("anymail.urls")),
    path("", include("games.urls")),
]
