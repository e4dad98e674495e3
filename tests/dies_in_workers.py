"""Imports fine in the campaign's parent process, kills any worker process that imports it."""

import multiprocessing
import os

if multiprocessing.parent_process() is not None:
    os._exit(3)
