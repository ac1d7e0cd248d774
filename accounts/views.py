from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST
from rest_framework.authtoken.models import Token

from accounts import services
from accounts.forms import SignUpForm
from games.selectors import memberships_of


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("profile")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome to Lantern, {user.username}.")
        return redirect("profile")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    token = Token.objects.filter(user=request.user).first()
    new_key = request.session.pop("new_api_token", None)
    return render(
        request,
        "accounts/profile.html",
        {"token": token, "new_key": new_key, "memberships": memberships_of(request.user)},
    )


@login_required
@require_POST
def create_token(request: HttpRequest) -> HttpResponse:
    token = services.issue_api_token(request.user)
    # Shown once, on the next page; afterwards only its first characters are.
    request.session["new_api_token"] = token.key
    messages.success(request, "A new API token was created. Any previous token no longer works.")
    return redirect("profile")


@login_required
@require_POST
def revoke_token(request: HttpRequest) -> HttpResponse:
    if services.revoke_api_token(request.user):
        messages.success(request, "Your API token was revoked.")
    return redirect("profile")
