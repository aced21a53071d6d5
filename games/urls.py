from django.urls import path

from django.contrib.auth import views as auth_views

from games import moderation_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.svg", views.favicon, name="favicon"),
    path("favicon.ico", views.favicon),
    path("new/", views.game_new, name="game_new"),
    path("new/sent/", views.game_created, name="game_created"),
    path("s/<str:token>/", views.seat_page, name="seat"),
    path("s/<str:token>/accept", views.seat_accept_view, name="seat_accept"),
    path("s/<str:token>/act", views.seat_act, name="seat_act"),
    path("s/<str:token>/arrange", views.seat_arrange, name="seat_arrange"),
    path("s/<str:token>/orders", views.seat_orders, name="seat_orders"),
    path("s/<str:token>/emails", views.seat_emails, name="seat_emails"),
    path("s/<str:token>/help", views.seat_help, name="seat_help"),
    path("s/<str:token>/absence", views.seat_absence, name="seat_absence"),
    path("s/<str:token>/back", views.seat_back_view, name="seat_back"),
    path("s/<str:token>/seen", views.seat_seen, name="seat_seen"),
    path("s/<str:token>/state.json", views.seat_json, name="seat_json"),
    path("u/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("g/<str:public_id>/", views.spectator, name="spectator"),
    path("g/<str:public_id>/state.json", views.spectator_json, name="spectator_json"),
    path("g/<str:public_id>/verify", views.verify, name="verify"),
    path("link/", views.link_resend_view, name="link_resend"),
    path("link/sent/", views.link_sent, name="link_sent"),
    path("mod/", moderation_views.dashboard, name="mod_dashboard"),
    path(
        "mod/login/",
        auth_views.LoginView.as_view(template_name="moderation/login.html"),
        name="mod_login",
    ),
    path("mod/logout/", auth_views.LogoutView.as_view(next_page="mod_login"), name="mod_logout"),
    path("mod/g/<str:public_id>/", moderation_views.game_page, name="mod_game"),
    path("mod/g/<str:public_id>/act", moderation_views.game_act, name="mod_game_act"),
    path("dev/mailbox/", views.dev_mailbox, name="dev_mailbox"),
    path("dev/mailbox/<str:name>", views.dev_mailbox_message, name="dev_mailbox_message"),
    path("dev/mailbox/<str:name>/html", views.dev_mailbox_html, name="dev_mailbox_html"),
]
