import sys
from pathlib import Path

# apikit lives beside the API tests.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "api"))
