"""The record's latest signed checkpoint (:mod:`api.record.checkpoints`): ``GET
/v1/checkpoints/latest``, as the store keeps it, byte for byte in its fields. A checkpoint holds
chain heads and a signature, nothing secret; it is read as the record is (a read or an operator
key unless ``ROADS_PUBLIC_RECORD=1``). 404 without a record, without a checkpoint store, or
before the first checkpoint; 503 when the store cannot be read, or, naming what is wrong, when
its last line is not a checkpoint (the recorder then signs nothing until it is repaired)."""

from __future__ import annotations

from flask_smorest import Blueprint, abort
from marshmallow import Schema, fields

from api.http.answers import services
from api.http.auth import SECURITY, require_record_reader
from api.record.checkpointstore import DamagedStore

DAMAGED = "the recorder signs no checkpoint until an operator repairs it (docs/security.md)"

blp = Blueprint("checkpoints", __name__, description="The record's signed checkpoints.")


class CheckpointHeadSchema(Schema):
    table = fields.String(required=True)
    shoe = fields.String(required=True, metadata={"description": '"" for the table\'s own chain'})
    head = fields.String(required=True, metadata={"description": "the chain's head hash (hex)"})
    number = fields.Integer(required=True, metadata={"description": "the table's log number"})
    writes = fields.Integer(metadata={"description": "the shoe's recorded writes to its head"})


class CheckpointSchema(Schema):
    format = fields.String(required=True, metadata={"example": "roads-checkpoint/1"})
    seq = fields.Integer(required=True)
    at = fields.String(required=True, metadata={"description": "UTC, to the millisecond"})
    prev = fields.String(
        required=True, metadata={"description": "SHA-256 of the previous checkpoint's signed bytes"}
    )
    key = fields.String(required=True, metadata={"description": "the signing key's id"})
    heads = fields.List(fields.Nested(CheckpointHeadSchema), required=True)
    sig = fields.String(required=True, metadata={"description": "Ed25519 signature, base64"})


@blp.route("/v1/checkpoints/latest")
@blp.doc(security=SECURITY)
@blp.response(200, CheckpointSchema)
@require_record_reader
def latest():
    """The newest signed checkpoint of the record's chain heads (check an export against it with
    ``python -m roads.verify FILE --checkpoint CP --public-key KEY``)."""
    record = services().record
    if record is None:
        abort(404, message="this deployment keeps no record (ROADS_DATABASE_URL is not set)")
    if record.checkpoints is None:
        abort(404, message="this deployment keeps no checkpoints (ROADS_CHECKPOINT_DIR)")
    try:
        found = record.checkpoints.latest()
    except OSError:
        abort(503, message="the checkpoint store cannot be read")
    except DamagedStore as error:  # names the fault, never the line: no checkpoint is made
        abort(503, message=f"the checkpoint store is damaged ({error}): {DAMAGED}")
    if found is None:
        abort(404, message="no checkpoint has been signed yet")
    return found
