#!/bin/bash
# check_codes.sh NBO_H NBO_F90 - the module nbo's NBO_ERR_* parameters are
# nbo.h's, name for name and value for value.
codes() { grep -o 'NBO_ERR_[A-Z_]* *= *-[0-9]*' "$1" | tr -d ' ' | sort; }
if [ "$(codes "$1")" = "$(codes "$2")" ]; then
    echo "PASS: $(codes "$1" | wc -l) codes alike"
else
    diff <(codes "$1") <(codes "$2") 2>/dev/null
    echo "FAIL: $2's NBO_ERR_* differ from $1's"
    exit 1
fi
