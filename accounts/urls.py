from django.contrib.auth import views as auth_views
from django.urls import include, path

from accounts import views
from accounts.forms import LocalizedPasswordResetForm

account_patterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.SignInView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password/change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path(
        "password/reset/",
        auth_views.PasswordResetView.as_view(form_class=LocalizedPasswordResetForm),
        name="password_reset",
    ),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/complete/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("profile/", views.profile, name="profile"),
    path("settings/", views.account_settings, name="account-settings"),
    path("language/", views.set_language, name="set-language"),
    path("people/<str:username>/", views.person, name="person"),
    path("profile/token/", views.create_token, name="token-create"),
    path("profile/token/revoke/", views.revoke_token, name="token-revoke"),
]

urlpatterns = [
    path("accounts/", include(account_patterns)),
]
