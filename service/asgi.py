"""`service.asgi:app` for any ASGI server (uvicorn, granian, gunicorn with uvicorn workers), and what `rulekeeper
serve` runs: the app, its heap settled once it has started (service/heap.py)."""

from service.app import create_app
from service.heap import SettledOnceStarted
from service.logs import configure

configure()
app = SettledOnceStarted(create_app())
