"""`service.asgi:app` for any ASGI server (uvicorn, granian, gunicorn with uvicorn workers)."""

from service.app import create_app
from service.logs import configure

configure()
app = create_app()
