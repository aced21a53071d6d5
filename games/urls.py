from django.urls import path

from django.contrib.auth import views as auth_views

from games.web import dev, home, moderation, public, seat

urlpatterns = [
    path("", public.home, name="home"),
    path("favicon.svg", public.favicon, name="favicon"),
    path("favicon.ico", public.favicon),
    path("new/", public.game_new, name="game_new"),
    path("rules/", public.rules, name="rules"),
    path("new/sent/", public.game_created, name="game_created"),
    path("s/<str:token>/", seat.seat_page, name="seat"),
    path("s/<str:token>/accept", seat.seat_accept_view, name="seat_accept"),
    path("s/<str:token>/act", seat.seat_act, name="seat_act"),
    path("s/<str:token>/arrange", seat.seat_arrange, name="seat_arrange"),
    path("s/<str:token>/orders", seat.seat_orders, name="seat_orders"),
    path("s/<str:token>/emails", seat.seat_emails, name="seat_emails"),
    path("s/<str:token>/language", seat.seat_language, name="seat_language"),
    path("s/<str:token>/help", seat.seat_help, name="seat_help"),
    path("s/<str:token>/absence", seat.seat_absence, name="seat_absence"),
    path("s/<str:token>/back", seat.seat_back_view, name="seat_back"),
    path("s/<str:token>/seen", seat.seat_seen, name="seat_seen"),
    path("s/<str:token>/state.json", seat.seat_json, name="seat_json"),
    path("u/<str:token>/", seat.unsubscribe, name="unsubscribe"),
    path("g/<str:public_id>/", public.spectator, name="spectator"),
    path("g/<str:public_id>/state.json", public.spectator_json, name="spectator_json"),
    path("g/<str:public_id>/verify", public.verify, name="verify"),
    path("link/", public.link_resend_view, name="link_resend"),
    path("h/<str:token>/", home.home_games_view, name="home_games"),
    path("h/<str:token>/end", home.home_revoke_view, name="home_revoke"),
    path("link/sent/", public.link_sent, name="link_sent"),
    path("mod/", moderation.dashboard, name="mod_dashboard"),
    path(
        "mod/login/",
        auth_views.LoginView.as_view(template_name="moderation/login.html"),
        name="mod_login",
    ),
    path("mod/logout/", auth_views.LogoutView.as_view(next_page="mod_login"), name="mod_logout"),
    path("mod/g/<str:public_id>/", moderation.game_page, name="mod_game"),
    path("mod/g/<str:public_id>/act", moderation.game_act, name="mod_game_act"),
    path("dev/mailbox/", dev.dev_mailbox, name="dev_mailbox"),
    path("dev/mailbox/<str:name>", dev.dev_mailbox_message, name="dev_mailbox_message"),
    path("dev/mailbox/<str:name>/html", dev.dev_mailbox_html, name="dev_mailbox_html"),
]
