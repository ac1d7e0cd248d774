from django.apps import AppConfig


class ReferenceConfig(AppConfig):
    name = "reference"
    verbose_name = "Rules reference"
