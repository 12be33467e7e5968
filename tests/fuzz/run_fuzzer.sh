#!/bin/sh
# Run a libFuzzer binary (first argument) with the remaining arguments.
exec "$@"
