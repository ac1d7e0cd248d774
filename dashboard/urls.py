from django.urls import path

import config.converters  # noqa: F401 (registers the <id:...> path converter)
from dashboard import views

urlpatterns = [
    path("dashboard/", views.dashboard, name="dashboard"),
    path("dashboard/jobs.json", views.jobs_json, name="dashboard-jobs"),
    path("dashboard/jobs/<id:job_id>/retry/", views.retry_job, name="dashboard-job-retry"),
]
