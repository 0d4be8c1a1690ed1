"""The baseline of the throughput benchmarks: a minimal Flask app answering "ok"."""

from flask import Flask

app = Flask(__name__)


@app.get("/ok")
def ok():
    return "ok"
