from django.urls import include, path

from reference import views

# The rules reference, under /rules/ and named reference:<name>.
reference_patterns = [
    path("", views.index, name="index"),
    path("<slug:document>/", views.document_page, name="document"),
]

urlpatterns = [
    path("rules/", include((reference_patterns, "reference"))),
]
