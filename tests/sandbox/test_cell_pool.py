"""The cell pool hands a released cell to the lease waiting for it."""

from __future__ import annotations

import threading
import time

from reward_api.sandbox import open_pool
from reward_api.sandbox.policy import SandboxPolicy


def test_a_released_cell_goes_to_the_lease_waiting_for_it() -> None:
    # the pool's starter thread waits on the same condition as a lease: a release that
    # woke only the longest waiter (the starter) left this lease asleep beside an idle
    # cell until its deadline (a lifted judge's build waited 900 s behind a finished one)
    pool = open_pool("process", SandboxPolicy(), 1)
    try:
        pool.warm(1)
        held = threading.Event()
        waited: list[float] = []

        def holder() -> None:
            with pool.lease():
                held.set()
                time.sleep(0.5)

        def waiter() -> None:
            held.wait()
            t0 = time.monotonic()
            with pool.lease(timeout_s=20.0):
                waited.append(time.monotonic() - t0)

        threads = [threading.Thread(target=holder), threading.Thread(target=waiter)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30.0)
        assert waited and waited[0] < 10.0, waited
    finally:
        pool.close()
