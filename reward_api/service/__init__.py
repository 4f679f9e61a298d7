"""The reward service: the FastAPI gateway, its dispatch to workers, and the Celery worker.

``app`` builds the app; ``routes`` (the /v1 API, health) and ``dropin`` (OpenRLHF,
SandboxFusion) are the routes; ``http`` holds bodies, boundary errors and limits; ``deps``
the FastAPI dependencies; ``gateway`` the spine (resolve -> cache -> verify -> respond);
``dispatch`` the embedded backend and ``broker`` the Celery one, whose worker side is
``tasks``; ``cache``, ``problem_store`` and ``job_store`` keep state in memory or Redis;
``metrics`` and ``settings``; ``cli`` is ``codereward serve`` and ``codereward worker``.
The embedded mode (no broker) imports no Celery.
"""
