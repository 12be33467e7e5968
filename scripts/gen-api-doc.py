#!/usr/bin/env python3
"""Generate the API reference from a public header: docs/api.md, or man pages.

The header is the reference: its overview comment opens the page, and each
of its areas (a `/* --- name --- */` rule) becomes a section that shows the
declarations with the comments that document them, plus an index of the
functions.  tests/install checks that docs/api.md is current.

    scripts/gen-api-doc.py include/nbo.h > docs/api.md

Man pages (built by man/meson.build, never committed):

    scripts/gen-api-doc.py --man OUTDIR [--env docs/configuration.md ...]
                           [--docdir DIR] [--version V] [--link HEADER]
                           [--also NAME.SECTION ...] HEADER
    scripts/gen-api-doc.py --man-list HEADER
    scripts/gen-api-doc.py --examples OUTDIR HEADER
    scripts/gen-api-doc.py --man-tool OUTDIR tools/nbo_info.c
    scripts/gen-api-doc.py --man-md OUTDIR --name libnbo-mpi --section 7 docs/pmpi.md

HEADER is include/nbo.h or p3dfft_overlap/p3dfft_overlap.h: the prefix of
its functions (nbo, p3o) is the one most of them share, its error codes
are PREFIX_ERR_*.  --man writes one man3 page per function group of the
header (the functions declared under one comment; the others of the group
are `.so` links to the first), plus the overview page named after the
header (nbo(3), p3dfft_overlap(3)): overview, the sections of the areas
that hold only comments (threads, lifecycle), functions and constants by
area, error codes, and the NBO_* variables from the `| variable | ... |`
tables of the --env Markdown pages.  A function page has NAME, SYNOPSIS,
DESCRIPTION, RETURN VALUE, ERRORS (the ERRORS table below, else the codes
its comment names) and EXAMPLES (the EXAMPLES table below).  --link HEADER:
the functions of another header that the pages may name (bold, SEE ALSO).
--man-list prints the names --man writes; --examples writes each EXAMPLES
snippet as OUTDIR/NAME.c, for tests/install to compile.  --man-tool writes
nbo_info(1) from the tool's header comment and its `usage` string (its
--help).  --man-md writes a section-7 page from a Markdown guide.
"""
import argparse
import ast
import os
import re
import sys
from collections import Counter


def split_header(src):
    """(overview text, [(area name, area text)]) of a header."""
    head = re.match(r"\s*/\*(.*?)\*/", src, re.S)
    overview = "\n".join(re.sub(r"^\s*\* ?", "", l) for l in head.group(1).splitlines()).strip()
    body = src[head.end():]
    end = body.rfind("#ifdef __cplusplus\n}")
    body = body[:end] if end >= 0 else body
    parts = re.split(r"/\* -+ ([\w ]+?) \*/\n", body)
    return overview, list(zip(parts[1::2], parts[2::2]))


def title(area):
    """An area's name as a heading: first letter up, the rest as written."""
    area = area.strip()
    return area[:1].upper() + area[1:]


def markdown(src):
    overview, areas = split_header(src)
    out = ["# libnbo API reference", "",
           "Generated from `include/nbo.h` by `scripts/gen-api-doc.py`: edit the header, not this page.", "",
           overview, ""]
    index = []
    for name, text in areas:
        text = text.strip()
        funcs = re.findall(r"\b(nbo_\w+)\s*\((?!\d\))", text)   # not "nbo_info(1)"
        for f in funcs:
            if f not in [g for g, _ in index]:
                index.append((f, name))
        out += [f"## {title(name)}", "", "```c", text, "```", ""]
    out += ["## Index", ""]
    out += [f"- `{f}()`: {area.strip()}" for f, area in sorted(index)]
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ man pages

# The NAME line of each function group (keyed by its first function).  A
# function missing here gets the first sentence of its comment.
SUMMARY = {
    "nbo_version": "the libnbo version string",
    "nbo_strerror": "the message for an NBO_ERR_* code",
    "nbo_config_init": "default configuration of a communicator",
    "nbo_config_from_env": "configuration from the NBO_* environment variables",
    "nbo_config_set": "set one configuration field from an NBO_* name and value",
    "nbo_progress_name": "names of progress modes, algorithms and codecs",
    "nbo_comm_create": "bootstrap libnbo on an MPI communicator",
    "nbo_comm_free": "free an nbo communicator",
    "nbo_comm_query": "the engine and configuration a communicator resolved to",
    "nbo_engine_at": "the engines built into libnbo; whether one is usable on this machine",
    "nbo_cuda_available": "whether CUDA device buffers are usable in this process",
    "nbo_codec_available": "whether a codec of compressed all-to-alls is built into libnbo",
    "nbo_codec_bound": "the a priori error bound of a codec on a datatype",
    "nbo_ialltoall": "start a non-blocking all-to-all",
    "nbo_alltoall_init": "create a persistent all-to-all request",
    "nbo_ialltoallw": "start a non-blocking all-to-all with a datatype per block",
    "nbo_alltoallw_init": "create a persistent all-to-all request with a datatype per block",
    "nbo_iallreduce": "start a non-blocking allreduce or reduce-scatter-block",
    "nbo_allreduce_init": "create a persistent allreduce or reduce-scatter-block request",
    "nbo_iallgather": "start a non-blocking allgather(v)",
    "nbo_allgather_init": "create a persistent allgather(v) request",
    "nbo_ineighbor_alltoall": "start a non-blocking neighbourhood all-to-all(v) or allgather(v)",
    "nbo_neighbor_alltoall_init": "create a persistent neighbourhood all-to-all(v) or allgather(v) request",
    "nbo_ibcast": "start a non-blocking broadcast",
    "nbo_bcast_init": "create a persistent broadcast request",
    "nbo_ibarrier": "start a non-blocking barrier",
    "nbo_barrier_init": "create a persistent barrier request",
    "nbo_ireduce": "start a non-blocking reduce to a root",
    "nbo_reduce_init": "create a persistent reduce request",
    "nbo_ireduce_scatter": "start a non-blocking reduce-scatter with blocks of any size",
    "nbo_reduce_scatter_init": "create a persistent reduce-scatter request",
    "nbo_iscan": "start a non-blocking inclusive or exclusive scan",
    "nbo_scan_init": "create a persistent inclusive or exclusive scan request",
    "nbo_igather": "start a non-blocking gather(v) or scatter(v)",
    "nbo_gather_init": "create a persistent gather(v) or scatter(v) request",
    "nbo_start": "start a persistent request",
    "nbo_test": "complete a request",
    "nbo_waitall": "complete several requests",
    "nbo_progress": "advance requests progressed inline",
    "nbo_request_free": "free an inactive request",
    "nbo_request_algorithm": "the algorithm the compiler chose for a request",
    "nbo_request_tuning": "a request's window and what is left of its NBO_TUNE trial",
    "nbo_request_print": "print the task list of a request",
    "p3o_strerror": "the message for a P3O_ERR_* code",
    "p3o_last_error": "details of the last p3dfft_overlap failure",
    "p3o_options_init": "default options of a 3-D FFT plan",
    "p3o_plan_create": "plan a multi-variable pencil 3-D FFT",
    "p3o_plan_destroy": "free a 3-D FFT plan",
    "p3o_forward": "forward real-to-complex 3-D FFT of nv variables",
    "p3o_backward": "backward complex-to-real 3-D FFT of nv variables",
    "p3o_roundtrip": "forward FFT, spectral operation and backward FFT as one pipeline",
    "p3o_local_sizes": "the pencils this rank owns",
    "p3o_nbo_comm": "the libnbo communicator of a PIPELINED_NBO plan",
    "p3o_compression": "what a plan's compressed exchanges do: codec, bytes on the wire, error bounds",
    "p3o_plan_describe": "one line describing a 3-D FFT plan",
    "p3o_timers": "time spent in each stage of the transforms",
    "p3o_mode_name": "names of modes and precisions",
    "p3o_mode_from_name": "parse mode and precision names",
}

# The overview page of each header: NAME line and how to link.
OVERVIEW = {
    "nbo": {"summary": None, "link": "$(pkg-config --libs nbo)",
            "compile": "mpicc app.c $(pkg-config --cflags --libs nbo)", "manual": "libnbo"},
    "p3dfft_overlap": {"summary": "pencil-decomposed parallel 3-D FFT with overlapped column transposes",
                       "link": "$(pkg-config --libs p3dfft_overlap)",
                       "compile": "mpicc app.c $(pkg-config --cflags --libs p3dfft_overlap)",
                       "manual": "libnbo"},
}

# ERRORS of each function group (keyed by its first function): the codes it
# can return, each with what it means for this call (None: the code's own
# comment in the header), or one sentence for a function that cannot fail.
# A code that is not in the header's enum is an error of this script.
REQUEST_FAILURES = [
    ("NBO_ERR_TIMEOUT", "the request saw no completion for NBO_TIMEOUT ms (a peer is gone, stopped or never joined)."),
    ("NBO_ERR_PEER", "a peer failed or disconnected."),
    ("NBO_ERR_TRANSPORT", "the network reported an error."),
    ("NBO_ERR_MPI", "an MPI call failed (the MPI engine, datatype packing)."),
    ("NBO_ERR_MISMATCH", "a message was larger than its receive block: the ranks' counts disagree."),
    ("NBO_ERR_CUDA", "a CUDA call failed while staging device buffers."),
    ("NBO_ERR_CODEC", "the zfp codec refused a block holding NaN or infinity, sent or received "
                      "(docs/compression.md); the request ran to its end, and a refused block "
                      "arrives as NaN."),
    ("NBO_ERR_NOMEM", None),
    ("NBO_ERR_INTERNAL", None),
]
BUILD_ERRORS = [
    ("NBO_ERR_ARG", "req is NULL, or (all-to-allv) a count or displacement array is NULL."),
    ("NBO_ERR_COMM", "comm is NBO_COMM_NULL or not a live nbo communicator."),
    ("NBO_ERR_BUFFER", "a NULL buffer with a nonzero count, or both buffers MPI_IN_PLACE."),
    ("NBO_ERR_COUNT", None),
    ("NBO_ERR_DATATYPE", None),
    ("NBO_ERR_OVERFLOW", None),
    ("NBO_ERR_MISMATCH", "the block this rank sends itself differs in size from the one it receives; "
                         "with NBO_CHECK=1, the ranks' counts disagree (the rank is named on stderr)."),
    ("NBO_ERR_OVERLAP", "the send and receive buffers overlap (use MPI_IN_PLACE)."),
    ("NBO_ERR_DEVICE", None),
    ("NBO_ERR_CUDA", "device buffers without a CUDA build or GPU, or a CUDA call failed."),
    ("NBO_ERR_ENGINE", "the engine could not prepare the buffers (memory registration)."),
    ("NBO_ERR_MPI", "an MPI call failed (MPI_Pack_size on the datatypes, NBO_CHECK's collective)."),
    ("NBO_ERR_NOMEM", None),
]
# The all-to-all with a type per block.
ALLTOALLW_ERRORS = [
    ("NBO_ERR_ARG", "req is NULL, or a count, displacement or type array is NULL (the send "
                    "side's are not read with MPI_IN_PLACE)."),
    ("NBO_ERR_COMM", "comm is NBO_COMM_NULL or not a live nbo communicator."),
    ("NBO_ERR_BUFFER", "a NULL buffer with a nonzero count, or recvbuf MPI_IN_PLACE."),
    ("NBO_ERR_COUNT", "a count or a displacement is negative."),
    ("NBO_ERR_DATATYPE", "the type of a block with a nonzero count is MPI_DATATYPE_NULL or not "
                         "committed (an empty block's type is not read)."),
    ("NBO_ERR_OVERFLOW", None),
    ("NBO_ERR_MISMATCH", "the block this rank sends itself differs in bytes from the one it "
                         "receives; with NBO_CHECK=1, the ranks' counts disagree (the rank is "
                         "named on stderr)."),
    ("NBO_ERR_OVERLAP", "the send and receive buffers overlap (use MPI_IN_PLACE)."),
    ("NBO_ERR_DEVICE", "a buffer is CUDA device memory: not supported for this collective yet."),
    ("NBO_ERR_ENGINE", "the engine could not prepare the buffers (memory registration)."),
    ("NBO_ERR_MPI", "an MPI call failed (datatype queries, NBO_CHECK's collective)."),
    ("NBO_ERR_NOMEM", None),
]
# The other collectives: the same checks, with their own cases.
REDUCE_ERRORS = [
    ("NBO_ERR_ARG", "req is NULL."),
    ("NBO_ERR_COMM", "comm is NBO_COMM_NULL or not a live nbo communicator."),
    ("NBO_ERR_BUFFER", "a NULL buffer with a nonzero count, or recvbuf MPI_IN_PLACE."),
    ("NBO_ERR_COUNT", "count (recvcount) is negative."),
    ("NBO_ERR_DATATYPE", "datatype is MPI_DATATYPE_NULL or not committed, or (a non-contiguous "
                         "type) its true extent exceeds its extent."),
    ("NBO_ERR_OP", "op is MPI_OP_NULL, or not defined on datatype (MPI_BAND on MPI_FLOAT, "
                   "MPI_MAXLOC on MPI_INT, a predefined op on a derived type)."),
    ("NBO_ERR_OVERFLOW", None),
    ("NBO_ERR_OVERLAP", "sendbuf and recvbuf overlap (use MPI_IN_PLACE)."),
    ("NBO_ERR_MISMATCH", "with NBO_CHECK=1, the ranks' counts or collectives disagree "
                         "(the rank is named on stderr)."),
    ("NBO_ERR_DEVICE", "a buffer is CUDA device memory: not supported for this collective yet."),
    ("NBO_ERR_ENGINE", "the engine could not prepare the buffers (memory registration)."),
    ("NBO_ERR_MPI", "an MPI call failed (datatype queries, NBO_CHECK's collective)."),
    ("NBO_ERR_NOMEM", None),
]
GATHER_ERRORS = [
    ("NBO_ERR_ARG", "req is NULL, or (allgatherv) recvcounts or displs is NULL."),
    ("NBO_ERR_COMM", "comm is NBO_COMM_NULL or not a live nbo communicator."),
    ("NBO_ERR_BUFFER", "a NULL buffer with a nonzero count, or recvbuf MPI_IN_PLACE."),
    ("NBO_ERR_COUNT", None),
    ("NBO_ERR_DATATYPE", None),
    ("NBO_ERR_OVERFLOW", None),
    ("NBO_ERR_MISMATCH", "the own contribution differs in size from its block in recvbuf; with "
                         "NBO_CHECK=1, the ranks' counts disagree (the rank is named on stderr)."),
    ("NBO_ERR_OVERLAP", "the send and receive buffers overlap (use MPI_IN_PLACE)."),
    ("NBO_ERR_DEVICE", "a buffer is CUDA device memory: not supported for this collective yet."),
    ("NBO_ERR_ENGINE", "the engine could not prepare the buffers (memory registration)."),
    ("NBO_ERR_MPI", "an MPI call failed (MPI_Pack_size on the datatypes, NBO_CHECK's collective)."),
    ("NBO_ERR_NOMEM", None),
]
NEIGHBOR_ERRORS = [
    ("NBO_ERR_ARG", "req is NULL, or a count or displacement array of a v form is NULL."),
    ("NBO_ERR_COMM", "comm is NBO_COMM_NULL or not a live nbo communicator, or the MPI "
                     "communicator it was created on has no Cartesian or graph topology "
                     "(said on stderr)."),
    ("NBO_ERR_BUFFER", "a NULL buffer with a nonzero count, or sendbuf or recvbuf MPI_IN_PLACE."),
    ("NBO_ERR_COUNT", None),
    ("NBO_ERR_DATATYPE", None),
    ("NBO_ERR_OVERFLOW", None),
    ("NBO_ERR_MISMATCH", "a block a rank sends itself (a self loop, a periodic dimension of one "
                         "process) differs in size from the block it receives from itself; with "
                         "NBO_CHECK=1, the ranks' counts disagree (the rank is named on stderr)."),
    ("NBO_ERR_OVERLAP", "the send and receive buffers overlap."),
    ("NBO_ERR_DEVICE", "a buffer is CUDA device memory: not supported for this collective yet."),
    ("NBO_ERR_ENGINE", "the engine could not prepare the buffers (memory registration)."),
    ("NBO_ERR_MPI", "an MPI call failed (the topology queries, MPI_Pack_size on the datatypes, "
                    "NBO_CHECK's collective)."),
    ("NBO_ERR_NOMEM", None),
]
BCAST_ERRORS = [
    ("NBO_ERR_ARG", "req is NULL."),
    ("NBO_ERR_COMM", "comm is NBO_COMM_NULL or not a live nbo communicator."),
    ("NBO_ERR_ROOT", "root is negative or not less than the size of comm."),
    ("NBO_ERR_BUFFER", "buffer is NULL with a nonzero count, or MPI_IN_PLACE."),
    ("NBO_ERR_COUNT", "count is negative."),
    ("NBO_ERR_DATATYPE", None),
    ("NBO_ERR_OVERFLOW", None),
    ("NBO_ERR_MISMATCH", "with NBO_CHECK=1, the ranks' counts or roots disagree "
                         "(the rank is named on stderr)."),
    ("NBO_ERR_DEVICE", "buffer is CUDA device memory: not supported for this collective yet."),
    ("NBO_ERR_ENGINE", "the engine could not prepare the buffer (memory registration)."),
    ("NBO_ERR_MPI", "an MPI call failed (MPI_Pack_size on the datatype, NBO_CHECK's collective)."),
    ("NBO_ERR_NOMEM", None),
]
BARRIER_ERRORS = [
    ("NBO_ERR_ARG", "req is NULL."),
    ("NBO_ERR_COMM", "comm is NBO_COMM_NULL or not a live nbo communicator."),
    ("NBO_ERR_MISMATCH", "with NBO_CHECK=1, the ranks called different collectives "
                         "(the rank is named on stderr)."),
    ("NBO_ERR_ENGINE", "the engine could not prepare the request's scratch (memory registration)."),
    ("NBO_ERR_MPI", "an MPI call failed (NBO_CHECK's collective)."),
    ("NBO_ERR_NOMEM", None),
]
ROOTED_REDUCE_ERRORS = [
    ("NBO_ERR_ROOT", "root is negative or not less than the size of comm."),
    ("NBO_ERR_BUFFER", "a NULL buffer with a nonzero count (recvbuf counts on root only), "
                       "recvbuf MPI_IN_PLACE, or sendbuf MPI_IN_PLACE on a rank other than root."),
] + [e for e in REDUCE_ERRORS if e[0] not in ("NBO_ERR_BUFFER", "NBO_ERR_MISMATCH")] + [
    ("NBO_ERR_MISMATCH", "with NBO_CHECK=1, the ranks' counts, roots or collectives disagree "
                         "(the rank is named on stderr)."),
]
ROOTED_ERRORS = [
    ("NBO_ERR_ARG", "req is NULL, or (gatherv, scatterv) root's counts or displacements are NULL."),
    ("NBO_ERR_COMM", "comm is NBO_COMM_NULL or not a live nbo communicator."),
    ("NBO_ERR_ROOT", "root is negative or not less than the size of comm."),
    ("NBO_ERR_BUFFER", "a NULL buffer with a nonzero count, gather's recvbuf MPI_IN_PLACE, or "
                       "MPI_IN_PLACE on a rank other than root."),
    ("NBO_ERR_COUNT", None),
    ("NBO_ERR_DATATYPE", None),
    ("NBO_ERR_OVERFLOW", None),
    ("NBO_ERR_MISMATCH", "root's own block differs in size from its slot among the P blocks; with "
                         "NBO_CHECK=1, the ranks' counts or roots disagree (the rank is named on stderr)."),
    ("NBO_ERR_OVERLAP", "root's send and receive buffers overlap (use MPI_IN_PLACE)."),
    ("NBO_ERR_DEVICE", "a buffer is CUDA device memory: not supported for this collective yet."),
    ("NBO_ERR_ENGINE", "the engine could not prepare the buffers (memory registration)."),
    ("NBO_ERR_MPI", "an MPI call failed (MPI_Pack_size on the datatypes, NBO_CHECK's collective)."),
    ("NBO_ERR_NOMEM", None),
]
TRANSFER_LATER = ["A failure of the transfer itself (a peer, the network, NBO_TIMEOUT) is returned by "
                  "nbo_wait or nbo_test."]
ERRORS = {
    "nbo_version": "None: it cannot fail.",
    "nbo_strerror": "None: it cannot fail.",
    "nbo_config_init": "None: a NULL config is ignored.",
    "nbo_config_from_env": [
        ("NBO_ERR_ARG", "config is NULL."),
        ("NBO_ERR_CONFIG", "a variable that is set holds a value it does not accept; each such "
                           "variable is named on stderr, the valid ones are applied."),
    ],
    "nbo_config_set": [
        ("NBO_ERR_ARG", "an argument is NULL, or name is not a variable of nbo_config_t."),
        ("NBO_ERR_CONFIG", "value is not valid for name; the field is left as it was."),
    ],
    "nbo_progress_name": "None: a value out of range gives \"?\".",
    "nbo_comm_create": [
        ("NBO_ERR_ARG", "out is NULL."),
        ("NBO_ERR_COMM", "comm is MPI_COMM_NULL or an inter-communicator."),
        ("NBO_ERR_MPI", "MPI is not initialised or already finalised, or an MPI call failed."),
        ("NBO_ERR_CONFIG", "the configuration holds an invalid value (a bad NBO_* variable is named on stderr), "
                           "or the engine asked for rejects one of its settings."),
        ("NBO_ERR_ENGINE", "the engine asked for is not built or not usable on every rank "
                           "(auto falls back to the MPI engine, which always is)."),
        ("NBO_ERR_THREAD_LEVEL", "progress thread asked for, but MPI does not provide MPI_THREAD_MULTIPLE."),
        ("NBO_ERR_CODEC", "codec zfp in a build without libzfp (nbo_codec_available); every rank returns it."),
        ("NBO_ERR_TIMEOUT", "the engine could not connect to every peer within NBO_TIMEOUT."),
        ("NBO_ERR_PEER", "a peer failed while the engine connected to it."),
        ("NBO_ERR_TRANSPORT", "the network reported an error while the engine connected."),
        ("NBO_ERR_NOMEM", None),
    ],
    "nbo_comm_free": [
        ("NBO_ERR_ARG", "comm is NULL."),
        ("NBO_ERR_COMM", "*comm is not a live nbo communicator."),
        ("NBO_ERR_PENDING", "requests made on the communicator are still live (active, or persistent "
                            "and not freed); nothing is released."),
        ("NBO_ERR_TIMEOUT", "a peer did not answer within NBO_TIMEOUT; the communicator is released "
                            "all the same and *comm set to NBO_COMM_NULL."),
        ("NBO_ERR_MPI", "the agreement with the peers failed; the communicator is released all the same."),
    ],
    "nbo_comm_query": [
        ("NBO_ERR_ARG", "info is NULL."),
        ("NBO_ERR_COMM", "comm is not a live nbo communicator."),
    ],
    "nbo_engine_at": [
        ("NBO_ERR_ARG", "nbo_engine_available: name is NULL."),
        ("NBO_ERR_ENGINE", "nbo_engine_available: no engine of that name is built into this "
                           "libnbo, or it is not usable here (detail says why)."),
        ("NBO_ERR_CONFIG", "nbo_engine_available: the engine rejects a value of its NBO_* "
                           "variables or of its library's (UCX_*), named on stderr."),
    ],
    "nbo_codec_available": [
        ("NBO_ERR_CODEC", "zfp in a libnbo built without libzfp, or a value that is no codec (detail says why)."),
    ],
    "nbo_codec_bound": [
        ("NBO_ERR_ARG", "bound is NULL."),
        ("NBO_ERR_CODEC", "the codec is not available, the rate is outside 1..64 for zfp, or no a priori "
                          "bound can be stated (zfp where docs/compression.md gives only measured errors); "
                          "*bound is 0."),
    ],
    "nbo_cuda_available": [
        ("NBO_ERR_CUDA", "libnbo is built without CUDA, or no CUDA GPU is usable (detail says why)."),
    ],
    "nbo_ialltoall": BUILD_ERRORS + [
        "A failure of the transfer itself (a peer, the network, NBO_TIMEOUT) is returned by "
        "nbo_wait or nbo_test.",
    ],
    "nbo_alltoall_init": BUILD_ERRORS + [
        "A failure of a transfer is returned by the nbo_wait or nbo_test that completes it.",
    ],
    "nbo_ialltoallw": ALLTOALLW_ERRORS + TRANSFER_LATER,
    "nbo_alltoallw_init": ALLTOALLW_ERRORS + TRANSFER_LATER,
    "nbo_iallreduce": REDUCE_ERRORS + TRANSFER_LATER,
    "nbo_allreduce_init": REDUCE_ERRORS + TRANSFER_LATER,
    "nbo_iallgather": GATHER_ERRORS + TRANSFER_LATER,
    "nbo_allgather_init": GATHER_ERRORS + TRANSFER_LATER,
    "nbo_ineighbor_alltoall": NEIGHBOR_ERRORS + TRANSFER_LATER,
    "nbo_neighbor_alltoall_init": NEIGHBOR_ERRORS + TRANSFER_LATER,
    "nbo_ibcast": BCAST_ERRORS + TRANSFER_LATER,
    "nbo_bcast_init": BCAST_ERRORS + TRANSFER_LATER,
    "nbo_ibarrier": BARRIER_ERRORS + TRANSFER_LATER,
    "nbo_barrier_init": BARRIER_ERRORS + TRANSFER_LATER,
    "nbo_ireduce": ROOTED_REDUCE_ERRORS + TRANSFER_LATER,
    "nbo_reduce_init": ROOTED_REDUCE_ERRORS + TRANSFER_LATER,
    "nbo_ireduce_scatter": [("NBO_ERR_ARG", "req or recvcounts is NULL.")] +
        [e for e in REDUCE_ERRORS if e[0] != "NBO_ERR_ARG"] + TRANSFER_LATER,
    "nbo_reduce_scatter_init": [("NBO_ERR_ARG", "req or recvcounts is NULL.")] +
        [e for e in REDUCE_ERRORS if e[0] != "NBO_ERR_ARG"] + TRANSFER_LATER,
    "nbo_iscan": REDUCE_ERRORS + TRANSFER_LATER,
    "nbo_scan_init": REDUCE_ERRORS + TRANSFER_LATER,
    "nbo_igather": ROOTED_ERRORS + TRANSFER_LATER,
    "nbo_gather_init": ROOTED_ERRORS + TRANSFER_LATER,
    "nbo_start": [
        ("NBO_ERR_ARG", "req is NULL, or *req is not a persistent request."),
        ("NBO_ERR_REQUEST_NULL", "*req is NBO_REQUEST_NULL."),
        ("NBO_ERR_REQUEST", None),
        ("NBO_ERR_ACTIVE", "the request was started and not yet completed by nbo_wait or nbo_test."),
    ],
    "nbo_test": [
        ("NBO_ERR_ARG", "req or flag is NULL."),
        ("NBO_ERR_REQUEST", None),
    ] + REQUEST_FAILURES,
    "nbo_progress": "None: it returns a count, never an error; a request that fails is "
                    "reported by nbo_test or nbo_wait.",
    "nbo_waitall": [
        ("NBO_ERR_ARG", "count is negative, or reqs is NULL with a positive count."),
        ("NBO_ERR_REQUEST", "an entry is not a valid handle; no request is waited for."),
    ] + REQUEST_FAILURES,
    "nbo_request_free": [
        ("NBO_ERR_ARG", "req is NULL."),
        ("NBO_ERR_REQUEST_NULL", "*req is NBO_REQUEST_NULL."),
        ("NBO_ERR_REQUEST", None),
        ("NBO_ERR_ACTIVE", "the request is running: complete it first (nbo_wait)."),
    ],
    "nbo_request_algorithm": [
        ("NBO_ERR_ARG", "alg is NULL."),
        ("NBO_ERR_REQUEST_NULL", "req is NBO_REQUEST_NULL."),
        ("NBO_ERR_REQUEST", None),
    ],
    "nbo_request_tuning": [
        ("NBO_ERR_REQUEST_NULL", "req is NBO_REQUEST_NULL."),
        ("NBO_ERR_REQUEST", None),
    ],
    "nbo_request_print": [
        ("NBO_ERR_ARG", "out is NULL."),
        ("NBO_ERR_REQUEST_NULL", "req is NBO_REQUEST_NULL."),
        ("NBO_ERR_REQUEST", None),
    ],
    "p3o_strerror": "None: it cannot fail.",
    "p3o_last_error": "None: it cannot fail.",
    "p3o_options_init": "None: a NULL options is ignored.",
    "p3o_plan_create": [
        ("P3O_ERR_ARG", "plan is NULL, or an enum value or options.device is out of range."),
        ("P3O_ERR_COMM", None),
        ("P3O_ERR_SIZE", None),
        ("P3O_ERR_NV", None),
        ("P3O_ERR_GRID", "options row and col: one set without the other, or row x col is not the size of comm."),
        ("P3O_ERR_TOO_MANY_PROCS", None),
        ("P3O_ERR_MISMATCH", None),
        ("P3O_ERR_TOO_LARGE", None),
        ("P3O_ERR_NOMEM", None),
        ("P3O_ERR_FFTW", "FFTW could not make a plan, or read or write the wisdom file."),
        ("P3O_ERR_MPI", None),
        ("P3O_ERR_NBO", "PIPELINED_NBO: nbo_comm_create or nbo_alltoallv_init failed (p3o_last_error "
                        "says which, with nbo_strerror's message)."),
        ("P3O_ERR_CUDA", "options.device = 1 without CUDA or a GPU, or a CUDA or cuFFT call failed."),
        ("P3O_ERR_CODEC", "options.codec where it cannot run: a mode other than PIPELINED_NBO, a GPU plan, "
                          "a codec this libnbo lacks, a zfp rate outside 1..64, or an options.nbo_config "
                          "whose codec differs."),
    ],
    "p3o_plan_destroy": [
        ("P3O_ERR_PLAN", "*plan is not a valid plan."),
    ],
    "p3o_forward": [
        ("P3O_ERR_PLAN", None),
        ("P3O_ERR_ARG", "a buffer is NULL, or host memory given to a GPU plan."),
        ("P3O_ERR_MPI", "an exchange failed in MPI."),
        ("P3O_ERR_NBO", "PIPELINED_NBO: nbo_start or nbo_wait failed (p3o_last_error has nbo_strerror's message)."),
        ("P3O_ERR_FFTW", "FFTW could not plan a transform for unaligned buffers."),
        ("P3O_ERR_CUDA", "GPU plans: a CUDA or cuFFT call failed."),
    ],
    "p3o_local_sizes": [
        ("P3O_ERR_PLAN", None),
        ("P3O_ERR_ARG", "local is NULL."),
    ],
    "p3o_nbo_comm": [
        ("P3O_ERR_PLAN", None),
        ("P3O_ERR_ARG", "comm is NULL."),
    ],
    "p3o_compression": [
        ("P3O_ERR_PLAN", None),
        ("P3O_ERR_ARG", "compression is NULL."),
    ],
    "p3o_plan_describe": [
        ("P3O_ERR_PLAN", None),
        ("P3O_ERR_ARG", "buf is NULL."),
    ],
    "p3o_timers": [
        ("P3O_ERR_PLAN", None),
        ("P3O_ERR_ARG", "timers is NULL (p3o_timers)."),
    ],
    "p3o_mode_name": "None: a value out of range gives \"unknown\".",
    "p3o_mode_from_name": [
        ("P3O_ERR_ARG", "name is NULL or not one of the names, or the output pointer is NULL."),
    ],
}
ERRORS["p3o_backward"] = ERRORS["p3o_forward"]
ERRORS["p3o_roundtrip"] = ERRORS["p3o_forward"]

# RETURN VALUE of the groups whose int is not a status code.
RETURNS = {
    "nbo_progress": ["The number of completion events handled, 0 or more."],
    "nbo_version": ["A static string such as \"0.1.0\", never NULL."],
    "nbo_strerror": ["A static string, never NULL (\"unknown error\" for a code that is none)."],
    "nbo_progress_name": ["A static string, never NULL."],
    "nbo_engine_at": ["nbo_engine_at: a static string, or NULL when i is past the last engine "
                      "(or negative).  nbo_engine_available: NBO_SUCCESS or an error below."],
    "p3o_strerror": ["A static string, never NULL."],
    "p3o_last_error": ["A string owned by the library, \"\" when nothing failed yet; the next failure overwrites it."],
    "p3o_mode_name": ["A static string, never NULL."],
}

# EXAMPLES of each function group: a C snippet, complete at file scope, so
# that tests/install compiles every one (--examples).
EXAMPLES = {
    "nbo_version": r'''
#include <stdio.h>
#include <nbo.h>

void print_version(void)
{
    printf("libnbo %s, header %d.%d.%d\n", nbo_version(),
           NBO_VERSION_MAJOR, NBO_VERSION_MINOR, NBO_VERSION_PATCH);
}
''',
    "nbo_strerror": r'''
#include <stdio.h>
#include <nbo.h>

int finish(nbo_request_t *req)
{
    int rc = nbo_wait(req);
    if (rc != NBO_SUCCESS)
        fprintf(stderr, "nbo_wait: %s (%d)\n", nbo_strerror(rc), rc);
    return rc;
}
''',
    "nbo_config_init": r'''
#include <string.h>
#include <nbo.h>

/* The MPI engine and a window of 4, whatever the environment says. */
int make_comm(MPI_Comm parent, nbo_comm_t *comm)
{
    nbo_config_t cfg;
    nbo_config_init(&cfg);
    strcpy(cfg.engine, "mpi");
    cfg.window = 4;
    return nbo_comm_create(parent, &cfg, comm);
}
''',
    "nbo_config_from_env": r'''
#include <nbo.h>

/* The NBO_* environment, then progress forced inline. */
int make_comm(MPI_Comm parent, nbo_comm_t *comm)
{
    nbo_config_t cfg;
    nbo_config_init(&cfg);
    int rc = nbo_config_from_env(&cfg);     /* bad values named on stderr */
    if (rc != NBO_SUCCESS)
        return rc;
    cfg.progress = NBO_PROGRESS_INLINE;
    return nbo_comm_create(parent, &cfg, comm);
}
''',
    "nbo_config_set": r'''
#include <stdio.h>
#include <string.h>
#include <nbo.h>

/* A setting from the command line, such as "NBO_WINDOW=16". */
int apply_option(nbo_config_t *cfg, const char *opt)
{
    const char *eq = strchr(opt, '=');
    char name[64];
    if (!eq || eq - opt >= (long)sizeof(name))
        return NBO_ERR_ARG;
    snprintf(name, sizeof(name), "%.*s", (int)(eq - opt), opt);
    int rc = nbo_config_set(cfg, name, eq + 1);
    if (rc != NBO_SUCCESS)
        fprintf(stderr, "%s: %s\n", opt, nbo_strerror(rc));
    return rc;
}
''',
    "nbo_progress_name": r'''
#include <stdio.h>
#include <nbo.h>

void print_config(const nbo_config_t *cfg)
{
    printf("engine %s, progress %s, algorithm %s, scheduling %s, codec %s\n",
           cfg->engine, nbo_progress_name(cfg->progress),
           nbo_algorithm_name(cfg->algorithm),
           nbo_progress_sched_name(cfg->progress_sched), nbo_codec_name(cfg->codec));
}
''',
    "nbo_comm_create": r'''
#include <stdio.h>
#include <nbo.h>

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    nbo_comm_t comm;
    int rc = nbo_comm_create(MPI_COMM_WORLD, NULL, &comm); /* NBO_* applies */
    if (rc != NBO_SUCCESS) {
        fprintf(stderr, "nbo_comm_create: %s\n", nbo_strerror(rc));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* ... many nbo_ialltoall + nbo_wait on comm ... */
    nbo_comm_free(&comm);
    MPI_Finalize();
    return 0;
}
''',
    "nbo_comm_free": r'''
#include <stdio.h>
#include <nbo.h>

/* The end of a program: requests first, then the communicator, then MPI. */
void finish(nbo_comm_t *comm, nbo_request_t *persistent)
{
    nbo_wait(persistent);             /* returns at once if inactive */
    nbo_request_free(persistent);
    int rc = nbo_comm_free(comm);     /* collective */
    if (rc != NBO_SUCCESS)
        fprintf(stderr, "nbo_comm_free: %s\n", nbo_strerror(rc));
    MPI_Finalize();
}
''',
    "nbo_comm_query": r'''
#include <stdio.h>
#include <nbo.h>

void describe(nbo_comm_t comm)
{
    nbo_comm_info_t info;
    if (nbo_comm_query(comm, &info) == NBO_SUCCESS && info.rank == 0)
        printf("%d ranks: engine %s, progress %s, W = %d%s (%s)\n", info.size,
               info.engine, nbo_progress_name(info.progress),
               info.window, info.engine_caps & NBO_CAP_OFFLOAD ? ", RDMA" : "",
               info.engine_detail);
}
''',
    "nbo_engine_at": r'''
#include <stdio.h>
#include <string.h>
#include <nbo.h>

/* Every engine built in, whether it is usable here; UCX if it is, else
 * whatever auto finds. */
void pick_engine(nbo_config_t *cfg)
{
    strcpy(cfg->engine, "auto");
    for (int i = 0; nbo_engine_at(i); i++) {
        char why[256];
        int ok = nbo_engine_available(nbo_engine_at(i), why, sizeof(why)) == NBO_SUCCESS;
        printf("%-6s %s: %s\n", nbo_engine_at(i), ok ? "usable" : "unusable", why);
        if (ok && strcmp(nbo_engine_at(i), "ucx") == 0)
            strcpy(cfg->engine, "ucx");
    }
}
''',
    "nbo_codec_available": r'''
#include <stdio.h>
#include <nbo.h>

/* zfp at 16 bits per value where this libnbo has it, else doubles as floats. */
void choose_codec(nbo_config_t *cfg)
{
    char why[128];
    if (nbo_codec_available(NBO_CODEC_ZFP, why, sizeof(why)) == NBO_SUCCESS) {
        cfg->codec = NBO_CODEC_ZFP;
        cfg->codec_rate = 16;
    } else {
        fprintf(stderr, "no zfp: %s\n", why);
        cfg->codec = NBO_CODEC_FP32;
    }
}
''',
    "nbo_codec_bound": r'''
#include <math.h>
#include <nbo.h>

/* Does every value of x (n doubles) after the exchange stay within the
 * bound the codec states?  -1 where none is stated. */
int within_bound(nbo_codec_t codec, int rate, const double *x, const double *y, int n)
{
    double b, max = 0;
    if (nbo_codec_bound(codec, rate, MPI_DOUBLE, &b) != NBO_SUCCESS)
        return -1;
    for (int i = 0; i < n; i++)
        max = fmax(max, fabs(x[i]));
    for (int i = 0; i < n; i++)
        if (fabs(y[i] - x[i]) > b * max)
            return 0;
    return 1;
}
''',
    "nbo_cuda_available": r'''
#include <stdio.h>
#include <nbo.h>

/* Device buffers only where libnbo recognises them. */
int use_device_buffers(void)
{
    char detail[256];
    int rc = nbo_cuda_available(detail, sizeof(detail));
    fprintf(stderr, "CUDA: %s\n", detail);
    return rc == NBO_SUCCESS;
}
''',
    "nbo_ialltoall": r'''
#include <nbo.h>

void compute(void);

int exchange(nbo_comm_t comm, const double *sbuf, double *rbuf, int n)
{
    nbo_request_t req;
    int rc = nbo_ialltoall(sbuf, n, MPI_DOUBLE, rbuf, n, MPI_DOUBLE, comm, &req);
    if (rc != NBO_SUCCESS)
        return rc;
    compute();                 /* the transfer progresses meanwhile */
    return nbo_wait(&req);     /* req is NBO_REQUEST_NULL again */
}
''',
    "nbo_alltoall_init": r'''
#include <nbo.h>

void compute(int step);

/* Compiled once, started steps times; sbuf may change between starts. */
int iterate(nbo_comm_t comm, const double *sbuf, double *rbuf, int n, int steps)
{
    nbo_request_t req;
    int rc = nbo_alltoall_init(sbuf, n, MPI_DOUBLE, rbuf, n, MPI_DOUBLE, comm, &req);
    for (int s = 0; rc == NBO_SUCCESS && s < steps; s++) {
        rc = nbo_start(&req);
        if (rc == NBO_SUCCESS) {
            compute(s);
            rc = nbo_wait(&req);    /* req stays valid, inactive */
        }
    }
    if (req != NBO_REQUEST_NULL)
        nbo_request_free(&req);
    return rc;
}
''',
    "nbo_ialltoallw": r'''
#include <stdlib.h>
#include <nbo.h>

/* Rank p gets column p of this rank's row-major n x P matrix (a strided
 * type on the send side), n contiguous doubles per peer in col. */
int columns(nbo_comm_t comm, const double *matrix, int n, int P, double *col)
{
    MPI_Datatype column;
    MPI_Type_vector(n, 1, P, MPI_DOUBLE, &column);
    MPI_Type_commit(&column);
    int *sc = calloc(P, sizeof(int)), *sd = calloc(P, sizeof(int));
    int *rc = calloc(P, sizeof(int)), *rd = calloc(P, sizeof(int));
    MPI_Datatype *st = calloc(P, sizeof(MPI_Datatype)), *rt = calloc(P, sizeof(MPI_Datatype));
    for (int p = 0; p < P; p++) {
        sc[p] = 1; sd[p] = p * (int)sizeof(double); st[p] = column; /* column p */
        rc[p] = n; rd[p] = p * n * (int)sizeof(double); rt[p] = MPI_DOUBLE;
    }
    nbo_request_t req;
    int err = nbo_ialltoallw(matrix, sc, sd, st, col, rc, rd, rt, comm, &req);
    MPI_Type_free(&column); /* the request keeps its own copy */
    if (err == NBO_SUCCESS)
        err = nbo_wait(&req);
    free(sc); free(sd); free(rc); free(rd); free(st); free(rt);
    return err;
}
''',
    "nbo_alltoallw_init": r'''
#include <nbo.h>

/* The same exchange every step: its arrays built once by the caller. */
int exchange_steps(nbo_comm_t comm, const void *sbuf, const int *sc, const int *sd,
                   const MPI_Datatype *st, void *rbuf, const int *rc, const int *rd,
                   const MPI_Datatype *rt, int steps)
{
    nbo_request_t req;
    int err = nbo_alltoallw_init(sbuf, sc, sd, st, rbuf, rc, rd, rt, comm, &req);
    for (int s = 0; err == NBO_SUCCESS && s < steps; s++) {
        err = nbo_start(&req);
        if (err == NBO_SUCCESS)
            err = nbo_wait(&req);
    }
    if (req != NBO_REQUEST_NULL)
        nbo_request_free(&req);
    return err;
}
''',
    "nbo_iallreduce": r'''
#include <nbo.h>

void compute(void);

/* A global dot product overlapped with local work. */
int dot(nbo_comm_t comm, const double *x, const double *y, int n, double *result)
{
    double local = 0;
    for (int i = 0; i < n; i++)
        local += x[i] * y[i];
    nbo_request_t req;
    int rc = nbo_iallreduce(&local, result, 1, MPI_DOUBLE, MPI_SUM, comm, &req);
    if (rc != NBO_SUCCESS)
        return rc;
    compute();
    return nbo_wait(&req);
}
''',
    "nbo_allreduce_init": r'''
#include <nbo.h>

/* Gradients summed in place at every step: compiled once. */
int train(nbo_comm_t comm, float *grad, int n, int steps)
{
    nbo_request_t req;
    int rc = nbo_allreduce_init(MPI_IN_PLACE, grad, n, MPI_FLOAT, MPI_SUM, comm, &req);
    for (int s = 0; rc == NBO_SUCCESS && s < steps; s++) {
        rc = nbo_start(&req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(&req);
    }
    if (req != NBO_REQUEST_NULL)
        nbo_request_free(&req);
    return rc;
}
''',
    "nbo_ineighbor_alltoall": r'''
#include <nbo.h>

/* On a communicator created on a Cartesian MPI communicator of nd
 * dimensions: n doubles to each of the 2 * nd neighbours (-1 then +1 per
 * dimension) from out, and n from each into in, in the same order. */
int swap_faces(nbo_comm_t cart, const double *out, double *in, int n)
{
    nbo_request_t req;
    int rc = nbo_ineighbor_alltoall(out, n, MPI_DOUBLE, in, n, MPI_DOUBLE, cart, &req);
    return rc == NBO_SUCCESS ? nbo_wait(&req) : rc;
}
''',
    "nbo_neighbor_alltoall_init": r'''
#include <nbo.h>

/* A halo exchange compiled once and started every step (counts and
 * displacements per neighbour, as MPI_Neighbor_alltoallv takes them). */
int halo_steps(nbo_comm_t cart, const double *out, const int *sc, const int *sd, double *in,
               const int *rc, const int *rd, int steps)
{
    nbo_request_t req;
    int err = nbo_neighbor_alltoallv_init(out, sc, sd, MPI_DOUBLE, in, rc, rd, MPI_DOUBLE, cart,
                                          &req);
    for (int s = 0; err == NBO_SUCCESS && s < steps; s++) {
        err = nbo_start(&req);
        if (err == NBO_SUCCESS)
            err = nbo_wait(&req);
    }
    if (req != NBO_REQUEST_NULL)
        nbo_request_free(&req);
    return err;
}
''',
    "nbo_iallgather": r'''
#include <nbo.h>

/* Every rank's n values, rank by rank, into all (size * n). */
int gather_all(nbo_comm_t comm, const int *mine, int *all, int n)
{
    nbo_request_t req;
    int rc = nbo_iallgather(mine, n, MPI_INT, all, n, MPI_INT, comm, &req);
    return rc == NBO_SUCCESS ? nbo_wait(&req) : rc;
}
''',
    "nbo_allgather_init": r'''
#include <nbo.h>

/* Each rank's block is already in place in all: gathered steps times. */
int exchange_halo(nbo_comm_t comm, double *all, int n, int steps)
{
    nbo_request_t req;
    int rc = nbo_allgather_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, n, MPI_DOUBLE, comm, &req);
    for (int s = 0; rc == NBO_SUCCESS && s < steps; s++) {
        rc = nbo_start(&req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(&req);
    }
    if (req != NBO_REQUEST_NULL)
        nbo_request_free(&req);
    return rc;
}
''',
    "nbo_ibcast": r'''
#include <nbo.h>

/* Rank 0's parameters to every rank. */
int share_params(nbo_comm_t comm, double *params, int n)
{
    nbo_request_t req;
    int rc = nbo_ibcast(params, n, MPI_DOUBLE, 0, comm, &req);
    return rc == NBO_SUCCESS ? nbo_wait(&req) : rc;
}
''',
    "nbo_bcast_init": r'''
#include <nbo.h>

void update(double *field, int n);

/* The root's field to every rank after each of its updates. */
int broadcast_steps(nbo_comm_t comm, int root, int rank, double *field, int n, int steps)
{
    nbo_request_t req;
    int rc = nbo_bcast_init(field, n, MPI_DOUBLE, root, comm, &req);
    for (int s = 0; rc == NBO_SUCCESS && s < steps; s++) {
        if (rank == root)
            update(field, n);
        rc = nbo_start(&req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(&req);
    }
    if (req != NBO_REQUEST_NULL)
        nbo_request_free(&req);
    return rc;
}
''',
    "nbo_ibarrier": r'''
#include <nbo.h>

int handle_messages(void);

/* A sparse exchange (NBX): keep serving messages until every rank has
 * sent its own, which the barrier says once all ranks entered it. */
int drain(nbo_comm_t comm)
{
    nbo_request_t req;
    int done = 0, rc = nbo_ibarrier(comm, &req);
    while (rc == NBO_SUCCESS && !done) {
        handle_messages();
        rc = nbo_test(&req, &done);
    }
    return rc;
}
''',
    "nbo_barrier_init": r'''
#include <nbo.h>

void work(int step);

/* Every step ends once every rank has finished it, the wait overlapped. */
int steps(nbo_comm_t comm, int n)
{
    nbo_request_t req;
    int rc = nbo_barrier_init(comm, &req);
    for (int s = 0; rc == NBO_SUCCESS && s < n; s++) {
        work(s);
        rc = nbo_start(&req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(&req);
    }
    if (req != NBO_REQUEST_NULL)
        nbo_request_free(&req);
    return rc;
}
''',
    "nbo_ireduce": r'''
#include <nbo.h>

/* The sum of every rank's residuals on rank 0 (total ignored elsewhere). */
int residual_sum(nbo_comm_t comm, const double *local, double *total, int n)
{
    nbo_request_t req;
    int rc = nbo_ireduce(local, total, n, MPI_DOUBLE, MPI_SUM, 0, comm, &req);
    return rc == NBO_SUCCESS ? nbo_wait(&req) : rc;
}
''',
    "nbo_reduce_init": r'''
#include <nbo.h>

void diagnose(const double *norms, int n);

/* Each step's norms, maximum over the ranks, to rank 0 for printing. */
int norms_per_step(nbo_comm_t comm, int rank, double *norms, double *worst, int n, int steps)
{
    nbo_request_t req;
    int rc = nbo_reduce_init(norms, worst, n, MPI_DOUBLE, MPI_MAX, 0, comm, &req);
    for (int s = 0; rc == NBO_SUCCESS && s < steps; s++) {
        rc = nbo_start(&req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(&req);
        if (rc == NBO_SUCCESS && rank == 0)
            diagnose(worst, n);
    }
    if (req != NBO_REQUEST_NULL)
        nbo_request_free(&req);
    return rc;
}
''',
    "nbo_ireduce_scatter": r'''
#include <nbo.h>

/* Sum every rank's contributions to all rows; rank i keeps its own
 * counts[i] rows of n values, at the start of mine. */
int sum_rows(nbo_comm_t comm, const double *all, double *mine, const int *counts)
{
    nbo_request_t req;
    int rc = nbo_ireduce_scatter(all, mine, counts, MPI_DOUBLE, MPI_SUM, comm, &req);
    return rc == NBO_SUCCESS ? nbo_wait(&req) : rc;
}
''',
    "nbo_reduce_scatter_init": r'''
#include <nbo.h>

/* The same sum every step, the input rewritten in place each time. */
int sum_rows_steps(nbo_comm_t comm, double *all, const int *counts, int steps)
{
    nbo_request_t req;
    int rc = nbo_reduce_scatter_init(MPI_IN_PLACE, all, counts, MPI_DOUBLE, MPI_SUM, comm, &req);
    for (int s = 0; rc == NBO_SUCCESS && s < steps; s++) {
        rc = nbo_start(&req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(&req);
    }
    if (req != NBO_REQUEST_NULL)
        nbo_request_free(&req);
    return rc;
}
''',
    "nbo_iscan": r'''
#include <nbo.h>

/* Where this rank's n items start in a global numbering: the sum of the
 * counts of the lower ranks (rank 0's first is 0: exscan leaves it). */
int first_index(nbo_comm_t comm, int rank, int n, int *first)
{
    nbo_request_t req;
    *first = 0;
    int rc = nbo_iexscan(&n, first, 1, MPI_INT, MPI_SUM, comm, &req);
    rc = rc == NBO_SUCCESS ? nbo_wait(&req) : rc;
    if (rank == 0)
        *first = 0;
    return rc;
}
''',
    "nbo_scan_init": r'''
#include <nbo.h>

/* Each step's running total over the ranks up to this one. */
int running_totals(nbo_comm_t comm, double *mine, double *upto, int n, int steps)
{
    nbo_request_t req;
    int rc = nbo_scan_init(mine, upto, n, MPI_DOUBLE, MPI_SUM, comm, &req);
    for (int s = 0; rc == NBO_SUCCESS && s < steps; s++) {
        rc = nbo_start(&req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(&req);
    }
    if (req != NBO_REQUEST_NULL)
        nbo_request_free(&req);
    return rc;
}
''',
    "nbo_igather": r'''
#include <nbo.h>

/* n values of every rank to rank 0 for output, rank by rank in all. */
int collect(nbo_comm_t comm, const double *mine, double *all, int n)
{
    nbo_request_t req;
    int rc = nbo_igather(mine, n, MPI_DOUBLE, all, n, MPI_DOUBLE, 0, comm, &req);
    return rc == NBO_SUCCESS ? nbo_wait(&req) : rc;
}
''',
    "nbo_gather_init": r'''
#include <nbo.h>

/* Rank 0 reads the input of every step and hands each rank its n values. */
int distribute(nbo_comm_t comm, const double *input, double *mine, int n, int steps)
{
    nbo_request_t req;
    int rc = nbo_scatter_init(input, n, MPI_DOUBLE, mine, n, MPI_DOUBLE, 0, comm, &req);
    for (int s = 0; rc == NBO_SUCCESS && s < steps; s++) {
        rc = nbo_start(&req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(&req);
    }
    if (req != NBO_REQUEST_NULL)
        nbo_request_free(&req);
    return rc;
}
''',
    "nbo_start": r'''
#include <nbo.h>

/* One step with a request made by nbo_alltoall_init. */
int step(nbo_request_t *req)
{
    int rc = nbo_start(req);
    if (rc == NBO_SUCCESS)
        rc = nbo_wait(req);
    return rc;
}
''',
    "nbo_test": r'''
#include <nbo.h>

void compute_a_little(void);

/* Compute until the request is complete.  *req may be NBO_REQUEST_NULL
 * already: nbo_test then sets done = 1 at once. */
int overlap(nbo_request_t *req)
{
    int done = 0, rc = NBO_SUCCESS;
    while (!done && rc == NBO_SUCCESS) {
        compute_a_little();
        rc = nbo_test(req, &done);
    }
    return rc;     /* *req is NBO_REQUEST_NULL, or inactive if persistent */
}
''',
    "nbo_progress": r'''
#include <nbo.h>

/* Blocked on an MPI request while requests of an inline communicator are
 * outstanding: keep them moving too. */
void wait_mpi(MPI_Request *mreq)
{
    int done = 0;
    while (!done) {
        MPI_Test(mreq, &done, MPI_STATUS_IGNORE);
        nbo_progress();
    }
}
''',
    "nbo_waitall": r'''
#include <nbo.h>

int exchange_two(nbo_comm_t a, nbo_comm_t b, const int *s1, int *r1,
                 const int *s2, int *r2, int n)
{
    nbo_request_t reqs[2] = {NBO_REQUEST_NULL, NBO_REQUEST_NULL};
    int rc = nbo_ialltoall(s1, n, MPI_INT, r1, n, MPI_INT, a, &reqs[0]);
    if (rc == NBO_SUCCESS)
        rc = nbo_ialltoall(s2, n, MPI_INT, r2, n, MPI_INT, b, &reqs[1]);
    int rc2 = nbo_waitall(2, reqs);   /* NBO_REQUEST_NULL entries skipped */
    return rc != NBO_SUCCESS ? rc : rc2;
}
''',
    "nbo_request_free": r'''
#include <nbo.h>

/* Drop a persistent request, started or not. */
int drop(nbo_request_t *req)
{
    int rc = nbo_wait(req);            /* complete it if it runs */
    int rc2 = nbo_request_free(req);   /* *req becomes NBO_REQUEST_NULL */
    return rc != NBO_SUCCESS ? rc : rc2;
}
''',
    "nbo_request_algorithm": r'''
#include <stdio.h>
#include <nbo.h>

void show_choice(nbo_request_t req)
{
    nbo_algorithm_t alg;
    if (nbo_request_algorithm(req, &alg) == NBO_SUCCESS)
        printf("compiled as %s\n", nbo_algorithm_name(alg));
}
''',
    "nbo_request_tuning": r'''
#include <stdio.h>
#include <nbo.h>

/* Start a tuned persistent request until its trial is over. */
int settle(nbo_request_t *req)
{
    int left = 1, rc = NBO_SUCCESS;
    while (left > 0 && rc == NBO_SUCCESS) {
        rc = nbo_start(req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(req);
        if (rc == NBO_SUCCESS)
            rc = nbo_request_tuning(*req, NULL, &left);
    }
    return rc;
}
''',
    "nbo_request_print": r'''
#include <stdio.h>
#include <nbo.h>

/* Rank 0's task list, to a file. */
void dump(nbo_request_t req, int rank)
{
    FILE *f = rank == 0 ? fopen("tasks.txt", "w") : NULL;
    if (f) {
        nbo_request_print(req, f);
        fclose(f);
    }
}
''',
    "p3o_strerror": r'''
#include <stdio.h>
#include <p3dfft_overlap.h>

void report(const char *call, int rc)
{
    if (rc != P3O_SUCCESS)
        fprintf(stderr, "%s: %s\n", call, p3o_strerror(rc));
}
''',
    "p3o_last_error": r'''
#include <stdio.h>
#include <p3dfft_overlap.h>

void report(const char *call, int rc)
{
    if (rc != P3O_SUCCESS)   /* e.g. "nv = 0: at least one variable is needed" */
        fprintf(stderr, "%s: %s: %s\n", call, p3o_strerror(rc), p3o_last_error());
}
''',
    "p3o_options_init": r'''
#include <string.h>
#include <p3dfft_overlap.h>

/* A 4 x 2 process grid, quick planning, libnbo with the MPI engine. */
int make_plan(MPI_Comm comm, p3o_plan_t *plan)
{
    static nbo_config_t cfg;
    nbo_config_init(&cfg);
    strcpy(cfg.engine, "mpi");
    p3o_options_t opt;
    p3o_options_init(&opt);
    opt.row = 4;
    opt.col = 2;
    opt.planner = P3O_PLANNER_ESTIMATE;
    opt.nbo_config = &cfg;
    return p3o_plan_create(comm, 128, 128, 128, 3, P3O_DOUBLE, P3O_PIPELINED_NBO,
                           &opt, plan);
}
''',
    "p3o_plan_create": r'''
#include <stdio.h>
#include <stdlib.h>
#include <p3dfft_overlap.h>

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    p3o_plan_t plan;
    int rc = p3o_plan_create(MPI_COMM_WORLD, 64, 64, 64, 4, P3O_DOUBLE,
                             P3O_PIPELINED_NBO, NULL, &plan);
    if (rc != P3O_SUCCESS) {
        fprintf(stderr, "%s: %s\n", p3o_strerror(rc), p3o_last_error());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    p3o_local_t loc;
    p3o_local_sizes(plan, &loc);
    double *u = calloc(loc.nv * loc.real_count, sizeof(double));
    double *U = calloc(loc.nv * loc.complex_count, 2 * sizeof(double));
    /* ... fill u, then many p3o_forward / p3o_backward ... */
    p3o_forward(plan, u, U);
    p3o_plan_destroy(&plan);
    free(u);
    free(U);
    MPI_Finalize();
    return 0;
}
''',
    "p3o_plan_destroy": r'''
#include <p3dfft_overlap.h>

void finish(p3o_plan_t *plan)
{
    p3o_plan_destroy(plan);   /* collective; *plan becomes NULL */
    p3o_plan_destroy(plan);   /* a no-op now */
    MPI_Finalize();
}
''',
    "p3o_forward": r'''
#include <p3dfft_overlap.h>

/* u: nv real X-pencils; U: nv complex Z-pencils ((re, im) pairs). */
int spectrum(p3o_plan_t plan, const double *u, double *U)
{
    return p3o_forward(plan, u, U);
}
''',
    "p3o_backward": r'''
#include <p3dfft_overlap.h>

/* Back to real space, normalised: backward(forward(u)) is nx*ny*nz*u. */
int physical(p3o_plan_t plan, const double *U, double *u)
{
    p3o_local_t loc;
    int rc = p3o_backward(plan, U, u);
    if (rc == P3O_SUCCESS)
        rc = p3o_local_sizes(plan, &loc);
    if (rc != P3O_SUCCESS)
        return rc;
    double scale = 1.0 / ((double)loc.nx * loc.ny * loc.nz);
    for (size_t i = 0; i < loc.nv * loc.real_count; i++)
        u[i] *= scale;
    return P3O_SUCCESS;
}
''',
    "p3o_roundtrip": r'''
#include <p3dfft_overlap.h>

/* Divide each variable's spectrum by N (the transforms do not). */
static void normalise(void *spectrum, int v, void *arg)
{
    const p3o_local_t *loc = arg;
    double *c = spectrum, s = 1.0 / ((double)loc->nx * loc->ny * loc->nz);
    (void)v;
    for (size_t i = 0; i < 2 * loc->complex_count; i++)
        c[i] *= s;
}

int filter_step(p3o_plan_t plan, double *u, double *spec)
{
    p3o_local_t loc;
    int rc = p3o_local_sizes(plan, &loc);
    if (rc == P3O_SUCCESS)   /* in and out may be the same buffer */
        rc = p3o_roundtrip(plan, u, spec, u, normalise, &loc);
    return rc;
}
''',
    "p3o_local_sizes": r'''
#include <math.h>
#include <p3dfft_overlap.h>

/* Variable v of u on this rank's X-pencil: u = sin(x) along x. */
void fill(p3o_plan_t plan, double *u, int v)
{
    p3o_local_t l;
    if (p3o_local_sizes(plan, &l) != P3O_SUCCESS)
        return;
    double *w = u + (size_t)v * l.real_count;
    for (int z = 0; z < l.xsize[2]; z++)
        for (int y = 0; y < l.xsize[1]; y++)
            for (int x = 0; x < l.nx; x++)
                w[((size_t)z * l.xsize[1] + y) * l.nx + x] =
                    sin(6.283185307179586 * x / l.nx);
}
''',
    "p3o_nbo_comm": r'''
#include <stdio.h>
#include <p3dfft_overlap.h>

void which_engine(p3o_plan_t plan)
{
    nbo_comm_t comm;
    nbo_comm_info_t info;
    if (p3o_nbo_comm(plan, &comm) == P3O_SUCCESS && comm != NBO_COMM_NULL &&
        nbo_comm_query(comm, &info) == NBO_SUCCESS)
        printf("column transposes: engine %s, progress %s\n",
               info.engine, nbo_progress_name(info.progress));
}
''',
    "p3o_compression": r'''
#include <math.h>
#include <stdio.h>
#include <p3dfft_overlap.h>

/* Column exchanges as floats: half the bytes, a round trip within
 * 1.7e-7 (relative 2-norm) of the exact one. */
int lossy_plan(MPI_Comm comm, p3o_plan_t *plan)
{
    p3o_options_t opt;
    p3o_options_init(&opt);
    opt.codec = NBO_CODEC_FP32;
    int rc = p3o_plan_create(comm, 128, 128, 128, 8, P3O_DOUBLE, P3O_PIPELINED_NBO, &opt, plan);
    p3o_compression_t c;
    if (rc == P3O_SUCCESS && p3o_compression(*plan, &c) == P3O_SUCCESS && !isinf(c.roundtrip_bound))
        printf("%d compressed exchange(s) a leg, %.0f of %.0f bytes, round trip within %.1e\n",
               c.exchanges, c.wire_bytes, c.raw_bytes, c.roundtrip_bound);
    return rc;
}
''',
    "p3o_plan_describe": r'''
#include <stdio.h>
#include <p3dfft_overlap.h>

void log_plan(p3o_plan_t plan)
{
    char line[512];
    if (p3o_plan_describe(plan, line, sizeof(line)) == P3O_SUCCESS)
        printf("plan: %s\n", line);
}
''',
    "p3o_timers": r'''
#include <stdio.h>
#include <p3dfft_overlap.h>

void print_times(p3o_plan_t plan)
{
    p3o_timers_t t;
    if (p3o_timers(plan, &t) != P3O_SUCCESS || t.calls == 0)
        return;
    printf("per call: total %.3f ms, column exchange %.3f ms, waiting %.3f ms\n",
           1e3 * t.total / t.calls, 1e3 * t.col_comm / t.calls, 1e3 * t.wait / t.calls);
    p3o_timers_reset(plan);
}
''',
    "p3o_mode_name": r'''
#include <stdio.h>
#include <p3dfft_overlap.h>

void print_plan(p3o_plan_t plan)
{
    p3o_local_t l;
    if (p3o_local_sizes(plan, &l) == P3O_SUCCESS)
        printf("%d x %d x %d, %d variables, %s, %s\n", l.nx, l.ny, l.nz, l.nv,
               p3o_mode_name(l.mode), p3o_precision_name(l.precision));
}
''',
    "p3o_mode_from_name": r'''
#include <stdio.h>
#include <p3dfft_overlap.h>

/* "--mode pipelined_nbo --precision single" */
int parse(const char *mode_name, const char *precision_name, p3o_mode_t *mode,
          p3o_precision_t *precision)
{
    int rc = p3o_mode_from_name(mode_name, mode);
    if (rc == P3O_SUCCESS)
        rc = p3o_precision_from_name(precision_name, precision);
    if (rc != P3O_SUCCESS)
        fprintf(stderr, "%s\n", p3o_last_error());
    return rc;
}
''',
}


def comment_lines(c):
    """The lines of a /* ... */ comment, stars stripped, indentation kept."""
    lines = c[2:-2].splitlines()
    out = []
    for i, l in enumerate(lines):
        l = re.sub(r"^\s*\* ?", "", l) if i else l.lstrip()
        out.append(l.rstrip())
    while out and not out[0]:
        out.pop(0)
    while out and not out[-1]:
        out.pop()
    return out


ONE_COMMENT = re.compile(r"/\*(?:(?!\*/).)*\*/", re.S)


class Api:
    """One public header: its prefix, function groups, types and codes."""

    def __init__(self, src, path, version=None):
        self.src = src
        self.page = os.path.splitext(os.path.basename(path))[0]   # nbo, p3dfft_overlap
        self.header = os.path.basename(path)
        names = re.findall(r"^[a-z][\w \*]*?\b([a-z][a-z0-9]*)_\w+\s*\(", src, re.M)
        self.prefix = Counter(names).most_common(1)[0][0]           # nbo, p3o
        P = self.prefix.upper()
        self.proto = re.compile(
            rf"^(?!typedef|enum|#|\s)([^;{{}}#]*?\b({self.prefix}_\w+)\s*\([^;]*\));", re.M)
        self.overview, areas = split_header(src)
        self.groups, self.types, self.errors, self.notes, self.consts = [], {}, [], {}, {}
        self.type_notes = {}      # type name -> its comment lines
        self.area_names = []
        for area, text in areas:
            area = area.strip()
            self.area_names.append(area)
            self.parse_area(area, text)
        m = re.search(rf"{P}_SUCCESS\s*=\s*0", src)
        self.success = f"{P}_SUCCESS" if m else None
        self.version = version or self.header_version()

    def header_version(self):
        parts = [re.search(rf"#define {self.prefix.upper()}_VERSION_{k} (\d+)", self.src)
                 for k in ("MAJOR", "MINOR", "PATCH")]
        return ".".join(p.group(1) for p in parts) if all(parts) else None

    def parse_area(self, area, text):
        P = self.prefix.upper()
        pending = []          # macro paragraphs waiting for a function group
        last_type = None
        for para in re.split(r"\n\s*\n", text.strip()):
            if ONE_COMMENT.fullmatch(para):                 # an area's own notes
                self.notes.setdefault(area, []).append(comment_lines(para))
                continue
            m = re.match(r"/\*(?:(?!\*/).)*\*/\n", para, re.S)
            comment = comment_lines(m.group(0).strip()) if m else []
            code = para[m.end():] if m else para
            protos = self.proto.findall(code)
            if protos:
                self.groups.append({"area": area, "comment": comment,
                                    "protos": [p for p, _ in protos],
                                    "funcs": [f for _, f in protos],
                                    "extra": pending})
                pending, last_type = [], None
                continue
            names = (re.findall(r"}\s*(\w+);", code)
                     + re.findall(r"typedef struct \w+ \*(\w+);", code)
                     + re.findall(r"typedef [^;(]*\(\s*\*\s*(\w+)\)\s*\(", code))
            if names:
                for n in names:
                    self.types[n] = [code]
                    self.type_notes[n] = comment
                last_type = names[-1]
            elif code.startswith("#define") and last_type:
                self.types[last_type].append(para)
            elif code.startswith("#define"):
                pending.append(para)
            if code.startswith("#define"):
                consts = re.findall(r"^#define\s+(\w+)\s+(\S+)[ \t]*(?:/\*(.*?)\*/)?", code, re.M | re.S)
                documented = [(n, v, " ".join(w.split())) for n, v, w in consts if w.strip()]
                if documented:
                    self.consts.setdefault(area, []).append((comment, documented))
            for name, val, what in re.findall(rf"({P}_ERR_\w+)\s*=\s*(-\d+),?\s*/\*(.*?)\*/", code, re.S):
                self.errors.append((name, val, " ".join(what.split())))

    def funcs(self):
        return [f for g in self.groups for f in g["funcs"]]


def esc(s):
    """Escape text for a man page line (non-ASCII as groff's \\[uXXXX])."""
    s = s.replace("\\", "\\e").replace("-", "\\-")
    s = "".join(c if ord(c) < 128 else f"\\[u{ord(c):04X}]" for c in s)
    return "\\&" + s if s[:1] in (".", "'") else s


def bold_names(text, funcs):
    for f in funcs:
        text = re.sub(rf"\b{f}\b", rf"\\fB{f}\\fP", text)
    return text


def prose(lines, funcs=()):
    """Comment lines as man paragraphs; indented lines stay preformatted."""
    out, para, pre = [], [], []

    def flush():
        if para:   # line by line: groff sees the sentence ends
            out.extend([".PP"] + [bold_names(esc(l), funcs) for l in para])
            para.clear()
        if pre:
            out.extend([".PP", ".EX"] + [esc(l) for l in pre] + [".EE"])
            pre.clear()

    for l in lines:
        if not l.strip():
            flush()
        elif l.startswith(" "):
            if para:
                flush()
            pre.append(l)
        else:
            if pre:
                flush()
            para.append(l.strip())
    flush()
    return out


def first_sentence(lines):
    text = " ".join(l.strip() for l in lines if l.strip())
    m = re.match(r"(.+?[.?])(\s|$)", text)
    return (m.group(1) if m else text).rstrip(".") or None


def th(name, section, version, manual="libnbo"):
    source = f"{manual} {version}" if version else manual
    return [f'.TH {name.upper()} {section} "" "{source}" "{manual} manual"']


def see_also(refs):
    refs = sorted({(n, str(s)) for n, s in refs}, key=lambda r: (r[1], r[0]))
    return [".SH SEE ALSO"] + [f".BR {n} ({s}){',' if i < len(refs) - 1 else ''}"
                               for i, (n, s) in enumerate(refs)]


def group_errors(api, g, meaning):
    """The ERRORS section of a function group, or [] if it has none."""
    first = g["funcs"][0]
    entry = ERRORS.get(first)
    if isinstance(entry, str):
        return [".SH ERRORS", esc(entry)]
    if entry is None:    # not in the table: the codes its comment names
        named = dict.fromkeys(re.findall(rf"{api.prefix.upper()}_ERR_\w+", " ".join(g["comment"])))
        entry = [(e, None) for e in named if e in meaning]
    if not entry:
        return []
    out = [".SH ERRORS"]
    for item in entry:
        if isinstance(item, str):      # a closing sentence
            out += [".PP", bold_names(esc(item), api.all_funcs)]
            continue
        code, text = item
        if code not in meaning:
            raise SystemExit(f"gen-api-doc.py: ERRORS of {first}: {code} is not a code of {api.header}")
        out += [".TP", f".B {code}", bold_names(esc(text or meaning[code][1] + "."), api.all_funcs)]
    return out


def example_section(first):
    ex = EXAMPLES.get(first)
    if not ex:
        return []
    return [".SH EXAMPLES", ".EX"] + [esc(l) if l else "\\&" for l in ex.strip("\n").splitlines()] + [".EE"]


def code_block(lines_list):
    out = [".PP", ".EX"]
    for i, d in enumerate(lines_list):
        out += (["\\&"] if i else []) + [esc(l) for l in d.splitlines()]
    return out + [".EE"]


def function_page(api, g, groups):
    first = g["funcs"][0]
    P = api.prefix.upper()
    meaning = {n: (v, w) for n, v, w in api.errors}
    info = OVERVIEW.get(api.page, OVERVIEW["nbo"])
    summary = SUMMARY.get(first) or first_sentence(g["comment"]) or f"{api.page} {g['area']}"
    out = th(first, 3, api.version, info["manual"])
    out += [".SH NAME", esc(", ".join(g["funcs"]) + " - " + summary)]
    out += [".SH SYNOPSIS", ".nf", f".B #include <{api.header}>", ".PP"]
    for p in g["protos"]:
        out += [esc(l) for l in (p + ";").splitlines()]
    out += [".fi", ".PP", "Link with", f'.BR "{esc(info["link"])}" .']
    out += [".SH DESCRIPTION"]
    out += prose(g["comment"], api.all_funcs) if g["comment"] else [".PP", esc(summary[0].upper() + summary[1:] + ".")]
    used = []
    for t in re.findall(rf"\b({api.prefix}_\w+_(?:t|fn))\b", " ".join(g["protos"])):
        if t in api.types and t not in used:
            used.append(t)
    if g["extra"] or used:
        out += [".PP", "From", f".BR <{api.header}> :"]
        if g["extra"]:
            out += code_block(g["extra"])
        for t in used:
            out += prose(api.type_notes.get(t, []), api.all_funcs)
            out += code_block(api.types[t])
    ret = [p.split("(")[0].split() for p in g["protos"]]
    if first in RETURNS:
        out += [".SH RETURN VALUE"] + [bold_names(esc(l), api.all_funcs) for l in RETURNS[first]]
    elif all(r[0] == "int" for r in ret) and api.success:
        out += [".SH RETURN VALUE",
                f".B {api.success}",
                "(0) on success, otherwise a negative",
                f".B {P}_ERR_*",
                "code (listed in",
                f".BR {api.page} (3));",
                f".BR {api.prefix}_strerror (3)",
                "turns it into a message."]
    out += group_errors(api, g, meaning)
    out += example_section(first)
    refs = [(api.page, 3)]
    refs += [(h["funcs"][0], 3) for h in groups if h["area"] == g["area"] and h is not g]
    text = " ".join(g["comment"]) + " " + EXAMPLES.get(first, "")
    refs += [(f, 3) for f in api.all_funcs if f not in g["funcs"] and re.search(rf"\b{f}\b", text)
             and api.first_of.get(f, f) != first]
    out += see_also(refs)
    return "\n".join(out) + "\n"


def overview_page(api, env_md, docdir, also):
    info = OVERVIEW.get(api.page, OVERVIEW["nbo"])
    P = api.prefix.upper()
    groups = api.groups
    paras = re.split(r"\n\s*\n", api.overview)
    m = re.match(rf"{re.escape(api.header)} - (?:libnbo, )?(.*?)\.", " ".join(paras[0].split()))
    summary = info["summary"] or (m.group(1) if m else api.page)
    out = th(api.page, 3, api.version, info["manual"])
    out += [".SH NAME", esc(f"{api.page} - {summary}")]
    out += [".SH SYNOPSIS", ".nf", f".B #include <{api.header}>", ".PP", esc(info["compile"]), ".fi"]
    first_para = paras[0].splitlines()
    rest = api.overview.splitlines()[len(first_para):]
    if info["summary"]:      # the first paragraph says more than the NAME line
        rest = api.overview.splitlines()
        rest[0] = re.sub(rf"^{re.escape(api.header)} - ", "", rest[0])
        rest[0] = rest[0][:1].upper() + rest[0][1:]
    out += [".SH DESCRIPTION"] + prose(rest, api.all_funcs)
    # Areas of notes alone (threads, lifecycle): a section each.
    with_funcs = {g["area"] for g in groups}
    for area in api.area_names:
        if area not in with_funcs and area in api.notes:
            out += [f".SH {esc(area.upper())}"]
            for n in api.notes[area]:
                out += prose(n, api.all_funcs)
    out += [".SH FUNCTIONS"]
    area = None
    for g in groups:
        if g["area"] != area:
            area = g["area"]
            out += [f".SS {esc(title(area))}"]
            for n in api.notes.get(area, []):
                out += prose(n, api.all_funcs)
            for intro, consts in api.consts.get(area, []):
                out += prose(intro, api.all_funcs) if intro else []
                for name, val, what in consts:
                    out += [".TP", f".BR {name} \" ({esc(val)})\"", bold_names(esc(what), api.all_funcs)]
        first = g["funcs"][0]
        summary = SUMMARY.get(first) or first_sentence(g["comment"]) or ""
        out += [".TP", ", ".join(f"\\fB{f}\\fP(3)" for f in g["funcs"]), esc(summary)]
    if api.success:
        out += [".SH ERRORS", f".B {api.success}", "is 0; every error is negative."]
        for n, v, w in api.errors:
            out += [".TP", f".BR {n} \" (\\{v})\"", esc(w)]
    if api.prefix == "nbo":
        out += [".SH ENVIRONMENT", "Read by", ".BR nbo_comm_create (3)",
                "when its configuration argument is NULL, and by",
                ".BR nbo_config_from_env (3);",
                ".BR nbo_info (1)",
                "prints the values in effect and names an invalid one."]
        for path in env_md:
            out += env_section(open(path).read())
    else:
        out += [".SH ENVIRONMENT", "None of its own; PIPELINED_NBO plans read the",
                ".B NBO_*", "variables of", ".BR nbo (3)",
                "unless options.nbo_config is set."]
    if docdir:
        out += [".SH FILES", ".TP", f".I {esc(docdir)}",
                "the guides: architecture, configuration, engines, running, reliability, "
                "benchmarks, p3dfft_overlap."]
    refs = [(g["funcs"][0], 3) for g in groups]
    refs += [tuple(a.rsplit(".", 1)) for a in also]
    if api.prefix == "nbo":
        refs += [("nbo_info", 1)]
    out += see_also(refs)
    return "\n".join(out) + "\n"


def man_pages(src, path, env_md=(), docdir=None, version=None, link_src=None, also=()):
    """{file name: page text} for the overview page and every function."""
    api = Api(src, path, version)
    api.all_funcs = api.funcs()
    api.first_of = {f: g["funcs"][0] for g in api.groups for f in g["funcs"]}
    if link_src:
        other = Api(link_src[0], link_src[1], version)
        api.all_funcs += other.funcs()
        api.first_of.update({f: g["funcs"][0] for g in other.groups for f in g["funcs"]})
    pages = {}
    for g in api.groups:
        first = g["funcs"][0]
        pages[first + ".3"] = function_page(api, g, api.groups)
        for f in g["funcs"][1:]:
            pages[f + ".3"] = f".so man3/{first}.3\n"
    pages[api.page + ".3"] = overview_page(api, env_md, docdir, also)
    return pages


def md_inline(s):
    """Markdown inline code, emphasis and links to man font changes."""
    s = esc(s)
    s = re.sub(r"\[([^]]*)\]\([^)]*\)", r"\1", s)
    s = re.sub(r"`([^`]*)`", r"\\fB\1\\fP", s)
    s = re.sub(r"\*\*([^*]+)\*\*", r"\\fB\1\\fP", s)
    return re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])", r"\\fI\1\\fP", s)


def table_rows(table):
    rows = [[c.strip() for c in l.strip().strip("|").split("|")] for l in table.splitlines()]
    return rows[0], rows[2:]


def table_tp(head, rows):
    """A Markdown table as .TP entries: the first column the tag."""
    out = []
    for r in rows:
        middle = [f"{h} {c}" for h, c in zip(head[1:-1], r[1:-1]) if c]
        text = (f"({', '.join(middle)}) " if middle else "") + r[-1]
        out += [".TP", md_inline(r[0]), md_inline(text)]
    return out


def env_section(md):
    """.SS + .TP entries of every `| variable | ... |` table of a Markdown page."""
    title_m = re.search(r"^# (.*)", md, re.M)
    out = []
    for table in re.findall(r"^\| variable \|.*\n\|[- |]+\|\n(?:\|.*\n?)+", md, re.M):
        out += [f".SS {md_inline(title_m.group(1))}"] if title_m else []
        out += table_tp(*table_rows(table))
    return out


def md_blocks(md):
    """Markdown body as man requests: paragraphs, lists, code, tables."""
    out = []
    lines = md.splitlines()
    i = 0
    while i < len(lines):
        l = lines[i]
        if not l.strip():
            i += 1
        elif l.startswith("    "):                       # code block
            block = []
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                block.append(lines[i][4:])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            out += [".PP", ".EX"] + [esc(b) for b in block] + [".EE"]
        elif l.startswith("|"):                          # table
            table = []
            while i < len(lines) and lines[i].startswith("|"):
                table.append(lines[i])
                i += 1
            out += table_tp(*table_rows("\n".join(table)))
        elif re.match(r"- ", l):                         # list
            while i < len(lines) and re.match(r"- ", lines[i]):
                item = [lines[i][2:].strip()]
                i += 1
                while i < len(lines) and lines[i].startswith("  ") and lines[i].strip():
                    item.append(lines[i].strip())
                    i += 1
                out += [".IP \\(bu 2", md_inline(" ".join(item))]
            out += [".PP"] if i < len(lines) and lines[i].strip() == "" else []
        else:                                            # paragraph
            para = []
            while i < len(lines) and lines[i].strip() and not re.match(r"(- |\||    |#)", lines[i]):
                para.append(lines[i].strip())
                i += 1
            out += [".PP", md_inline(" ".join(para))]
    return out


def man_md(md, name, section, version, skip=("Tests",), libdir=None, refs=()):
    """A man page from a Markdown guide: its title the NAME line, its
    introduction the DESCRIPTION, each `##` section a section."""
    title_m = re.match(r"# (.*)", md)
    head = title_m.group(1)
    summary = head.split(":", 1)[1].strip() if ":" in head else head
    if libdir:
        md = md.replace("/usr/local/lib/x86_64-linux-gnu", libdir)
    sections = re.split(r"^## (.*)\n", md[title_m.end():], flags=re.M)
    out = th(name, section, version)
    out += [".SH NAME", esc(f"{name} - {summary}")]
    out += [".SH DESCRIPTION"] + md_blocks(sections[0])
    for sec, body in zip(sections[1::2], sections[2::2]):
        if sec.strip() in skip:
            continue
        out += [f".SH {esc(sec.strip().upper())}"] + md_blocks(body)
    out += see_also(refs)
    text = "\n".join(out) + "\n"
    return re.sub(r"\n\.PP\n(\.PP\n)+", "\n.PP\n", text)


def man_tool(c_src, name, version=None):
    """nbo_info(1) from the tool's header comment and its usage string."""
    head = comment_lines(re.match(r"\s*/\*.*?\*/", c_src, re.S).group(0).strip())
    paras = [" ".join(p.split()) for p in "\n".join(head).split("\n\n")]
    m = re.match(rf"{name} - (.*?)[,.:]", paras[0])
    summary = m.group(1) if m else name

    def para(label):
        return [p[len(label):].strip() for p in paras if p.startswith(label)]

    output, status = para("Output:"), para("Exit status:")
    body = re.search(r"usage\[\]\s*=\s*((?:\s*\"(?:[^\"\\]|\\.)*\")+);", c_src).group(1)
    usage = "".join(ast.literal_eval(s) for s in re.findall(r"\"(?:[^\"\\]|\\.)*\"", body))
    lines = usage.splitlines()
    synopsis = lines[0].split(":", 1)[1].split()
    desc, opts = [], []
    for l in lines[1:]:
        if re.match(r"\s+-", l):
            opts.append([l.strip()])
        elif opts and l.startswith(" "):
            opts[-1].append(l.strip())
        else:
            desc.append(l)
    out = th(name, 1, version)
    out += [".SH NAME", esc(f"{name} - {summary}"),
            ".SH SYNOPSIS", f".B {esc(synopsis[0])}", esc(" ".join(synopsis[1:])),
            ".SH DESCRIPTION"] + prose(desc)
    out += [".SH OPTIONS"]
    for o in opts:
        flags, text = re.match(r"(-\w(?:, --[\w-]+)?)\s+(.*)", o[0]).groups()
        out += [".TP", ", ".join(f"\\fB{esc(f)}\\fP" for f in flags.split(", ")),
                esc(" ".join([text] + o[1:]))]
    if output:
        out += [".SH OUTPUT"] + prose(output)
    out += [".SH EXIT STATUS"] + (prose(status) if status else ["0, or 2 for an unknown option."])
    out += [".SH ENVIRONMENT", "The",
            ".B NBO_*",
            "variables of",
            ".BR nbo (3)",
            "and",
            ".BR libnbo-mpi (7)."]
    out += see_also([("nbo", 3), ("nbo_engine_at", 3), ("nbo_config_from_env", 3),
                     ("nbo_config_set", 3), ("nbo_comm_query", 3), ("libnbo-mpi", 7)])
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", nargs="?", default="include/nbo.h",
                    help="the header (tools/nbo_info.c with --man-tool, a Markdown page with --man-md)")
    ap.add_argument("--man", metavar="OUTDIR", help="write the man3 pages into OUTDIR")
    ap.add_argument("--man-list", action="store_true", help="print the man3 page names")
    ap.add_argument("--examples", metavar="OUTDIR", help="write each EXAMPLES snippet as OUTDIR/NAME.c")
    ap.add_argument("--man-tool", metavar="OUTDIR", help="write the tool's man1 page into OUTDIR")
    ap.add_argument("--man-md", metavar="OUTDIR", help="write a page of --section from a Markdown guide")
    ap.add_argument("--name", help="--man-md: the page name")
    ap.add_argument("--section", default="7", help="--man-md: the section (7)")
    ap.add_argument("--libdir", help="--man-md: where the libraries are installed")
    ap.add_argument("--env", action="append", default=[], metavar="MD",
                    help="Markdown page whose `| variable |` tables list NBO_* variables")
    ap.add_argument("--docdir", help="where the guides are installed (FILES of the overview page)")
    ap.add_argument("--version", help="the version for the page footers (else the header's)")
    ap.add_argument("--link", metavar="HEADER", help="another header whose functions the pages may name")
    ap.add_argument("--also", action="append", default=[], metavar="NAME.SECTION",
                    help="a page for SEE ALSO of the overview page")
    a = ap.parse_args()
    src = open(a.source).read()
    if a.man_tool:
        name = os.path.splitext(os.path.basename(a.source))[0]
        with open(os.path.join(a.man_tool, name + ".1"), "w") as f:
            f.write(man_tool(src, name, a.version))
    elif a.man_md:
        name = a.name or os.path.splitext(os.path.basename(a.source))[0]
        refs = [tuple(r.rsplit(".", 1)) for r in a.also] or [("nbo", "3"), ("nbo_info", "1")]
        with open(os.path.join(a.man_md, f"{name}.{a.section}"), "w") as f:
            f.write(man_md(src, name, a.section, a.version, libdir=a.libdir, refs=refs))
    elif a.man or a.man_list or a.examples:
        link = (open(a.link).read(), a.link) if a.link else None
        pages = man_pages(src, a.source, a.env, a.docdir, a.version, link, a.also)
        if a.man_list:
            print("\n".join(sorted(pages)))
        if a.man:
            for n, text in pages.items():
                with open(os.path.join(a.man, n), "w") as f:
                    f.write(text)
        if a.examples:
            api = Api(src, a.source)
            for g in api.groups:
                ex = EXAMPLES.get(g["funcs"][0])
                if ex:
                    with open(os.path.join(a.examples, g["funcs"][0] + ".c"), "w") as f:
                        f.write(ex.lstrip("\n"))
    else:
        sys.stdout.write(markdown(src))


if __name__ == "__main__":
    main()
