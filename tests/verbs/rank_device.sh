#!/bin/bash
# rank_device.sh DEVICES COMMAND...: run COMMAND (one MPI rank) on the RDMA
# device of its rank: word PMI_RANK of DEVICES ("rxe0 rxe1"), through that
# device's IPv4 GID (::ffff:a.b.c.d), so two ranks on two Soft-RoCE devices
# talk over the link between them (guest-stage2.sh) and not through rxe's
# internal loopback.  Sets NBO_VERBS_DEVICE and NBO_VERBS_GID_INDEX.
set -u
read -r -a devs <<<"$1"
shift
dev=${devs[${PMI_RANK:-0}]:-${devs[0]}}
for g in /sys/class/infiniband/"$dev"/ports/1/gids/*; do
    case $(cat "$g" 2>/dev/null) in
    0000:0000:0000:0000:0000:ffff:*) export NBO_VERBS_GID_INDEX=${g##*/}; break ;;
    esac
done
export NBO_VERBS_DEVICE=$dev NBO_VERBS_EXPECT_DEVICE=$dev
exec "$@"
