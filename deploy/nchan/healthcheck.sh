# The nchan container's healthcheck: nginx answers on the viewers' listener with its own
# config. /pub there is the 404 the config itself gives (the publisher is internal), so the
# check needs neither curl nor a door behind nginx.
exec 3<>/dev/tcp/127.0.0.1/8080
printf 'GET /pub HTTP/1.0\r\nHost: localhost\r\n\r\n' >&3
read -r -t 5 version status _ <&3
[ "$status" = 404 ]
