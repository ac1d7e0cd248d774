"""The API router: every app registers its viewsets here, so /api/ lists them all."""

from rest_framework.routers import DefaultRouter

router = DefaultRouter()
