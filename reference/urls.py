from django.urls import path

from reference import views

app_name = "reference"

urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:document>/", views.document_page, name="document"),
]
