"""The lobby web page (``static/``), served at ``/``. It uses only the public API."""

from flask import Blueprint, current_app

blp = Blueprint("pages", __name__)


@blp.route("/")
def lobby():
    response = current_app.send_static_file("index.html")
    response.headers["Cache-Control"] = "no-cache"
    return response
