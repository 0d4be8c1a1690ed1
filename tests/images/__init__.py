"""What the compose test (tests/system/test_compose.py) runs deploy/compose.yaml with, no image
registry being reachable: stand-ins for the official Redis and PostgreSQL images built on the
suite's local Debian base (``redis/``, ``postgres/``), the images built (:mod:`.standins`), and
the stack brought up and removed by podman-compose (:mod:`.stack`)."""
