# Fills in nginx.conf.in (deploy/nchan) from the environment and runs nginx in the foreground:
#   NCHAN_INGEST   the ingest door, HOST:PORT (ingest:8001)
#   NCHAN_PUBLIC   the public door, HOST:PORT (public:8000)
#   NCHAN_WORKERS  nginx workers (auto: one a core)
#   NCHAN_PUBLISHERS  the addresses (CIDR, space-separated) that may publish to /pub and read
#                  /metrics on the internal listener, besides loopback; by default the networks
#                  this container is attached to (the compose project's network: the doors)
set -Eeuo pipefail

dir=/var/lib/nchan
nofile=$(ulimit -Hn)
[ "$nofile" = unlimited ] && nofile=1048576

# The networks this container is attached to, from its routing table (no iproute2 needed):
# every route without a gateway, in CIDR form.
attached() {
    local iface dest gw _flags _refs _use _metric mask _rest bits
    while read -r iface dest gw _flags _refs _use _metric mask _rest; do
        [ "$iface" = Iface ] || [ "$gw" != 00000000 ] || [ "$dest" = 00000000 ] && continue
        bits=$(printf '%d' "0x$mask")
        local n=0
        while [ "$bits" -gt 0 ]; do n=$((n + (bits & 1))); bits=$((bits >> 1)); done
        printf '%d.%d.%d.%d/%d ' "0x${dest:6:2}" "0x${dest:4:2}" "0x${dest:2:2}" "0x${dest:0:2}" "$n"
    done </proc/net/route
}
publishers=${NCHAN_PUBLISHERS:-$(attached)}
allow=""
for net in $publishers; do
    allow+="allow $net; "
done

render() {
    sed -e "s|@MODULE@|/usr/lib/nginx/modules/ngx_nchan_module.so|g" \
        -e "s|@WORKERS@|${NCHAN_WORKERS:-auto}|g" \
        -e "s|@NOFILE@|$nofile|g" \
        -e "s|@CONNECTIONS@|$((nofile > 1124 ? nofile - 100 : 1024))|g" \
        -e "s|@DIR@|$dir|g" \
        -e "s|@LISTEN@|0.0.0.0:8080|g" \
        -e "s|@INTERNAL@|0.0.0.0:8081|g" \
        -e "s|@BACKEND@|\$roads_door|g" \
        -e "s|@FIRST_MESSAGE@|newest|g" \
        -e "s|@INGEST@|${NCHAN_INGEST:-ingest:8001}|g" \
        -e "s|@PUBLIC@|${NCHAN_PUBLIC:-public:8000}|g" \
        -e "s|^http {|http {\n    include $dir/doors.conf;|" \
        -e "s|deny all;|${allow}deny all;|" \
        "$1"
}
render /etc/nchan/doors.conf >"$dir/doors.conf"
render /etc/nchan/nginx.conf.in >"$dir/nginx.conf"
exec nginx -e stderr -p "$dir" -c "$dir/nginx.conf" -g "daemon off;"
