"""`service.asgi:app` for any ASGI server (uvicorn, granian, gunicorn with uvicorn workers), and what `rulekeeper
serve` runs: the app, its heap settled once it has started (service/heap.py)."""

import gc

# Importing the service makes about 290,000 objects that live as long as the process, and the collector walked
# them again and again while they were made: the import took 2.5 s of CPU here, 2.05 s with it paused; a whole
# start of `rulekeeper serve` to /readyz and out, 3.11 -> 2.83 s. Paused until the app is built, then what the
# import left in cycles is collected and the rest frozen before the collector resumes (service/heap.py
# settle_import); what the start-up adds is settled once it has started (settle).
gc.disable()
try:
    from service.app import create_app
    from service.heap import SettledOnceStarted, settle_import
    from service.logs import configure

    configure()
    app = SettledOnceStarted(create_app())
    settle_import()
finally:
    gc.enable()
