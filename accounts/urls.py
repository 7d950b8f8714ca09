from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/", views.account, name="account"),
    path("accounts/email/", views.email_change, name="email_change"),
    path("accounts/email/confirm/<str:token>/", views.email_change_confirm_page, name="email_change_confirm"),
    path("accounts/address/send/", views.address_confirm_send, name="address_confirm_send"),
    path("accounts/address/confirm/<str:token>/", views.address_confirm_page, name="address_confirm"),
    path("accounts/data/", views.account_data_download, name="account_data"),
    path("accounts/delete/", views.account_delete_page, name="account_delete"),
    path("accounts/deleted/", views.account_deleted_page, name="account_deleted"),
    path("privacy/", views.privacy, name="privacy"),
]

# django.contrib.auth's own views, under names without the app namespace so that its
# templates and settings (LOGIN_URL = "login") find them.
auth_urlpatterns = [
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    # Password reset: Django's views; ours only refuses when the site cannot send mail.
    path("accounts/password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("accounts/password/reset/done/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "accounts/password/reset/complete/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
]
