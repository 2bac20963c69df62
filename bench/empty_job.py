"""The empty rq job of ``bench/bot_turns.py``: the floor a bot turn is measured against."""


def empty_job() -> None:
    """Do nothing: what is left is rq's own round trip (enqueue, dequeue, result)."""
