"""The integrity watch's Redis side: what a write adds to it, in the lobby script's call, and
what operators and the drift evaluator read of it.

- :mod:`.watchapply`: the watch's part of the lobby script (its keys and arguments, and the Lua
  that raises a write's findings, indexes its anchors and queues its round for the day's tally);
- :mod:`.watchstore`: the watch's keys, read (a table's findings, a day's tallies, the alert
  stream) and the alerts raised off the write path (drift once per table and day, a repeated
  shoe the record's index found).
"""
