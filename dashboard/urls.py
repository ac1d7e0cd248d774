from django.urls import path

from dashboard import views

urlpatterns = [
    path("dashboard/", views.dashboard, name="dashboard"),
    path("dashboard/jobs.json", views.jobs_json, name="dashboard-jobs"),
    path("dashboard/jobs/<int:job_id>/retry/", views.retry_job, name="dashboard-job-retry"),
]
