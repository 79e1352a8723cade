/*
 * What a system call costs on this machine, beside the relays' counts (calls.sh SYSCALLS=1): the bare
 * entry and exit (getppid), a read of an empty UDP socket (what an edge-triggered loop pays to learn a
 * socket is drained), and a 172-byte datagram (a G.711 RTP packet) sent to a loopback socket and read
 * back, in batches of 100. On loopback the sender's sendto carries the receiver's whole input path.
 *   gcc -O2 -o /tmp/syscost overlay-voip/bench/syscost.c && /tmp/syscost
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(void) {
    char buf[2048] = {0};
    int n = 2000000;
    double t0 = now_ns();
    for (int i = 0; i < n; i++) syscall(SYS_getppid);
    printf("getppid: %.0f ns\n", (now_ns() - t0) / n);

    struct sockaddr_in any = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    int tx = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
    int rx = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
    if (tx < 0 || rx < 0 || bind(tx, (void *) &any, sizeof any) || bind(rx, (void *) &any, sizeof any)) {
        perror("socket");
        return 1;
    }
    int big = 8 << 20;
    setsockopt(rx, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
    struct sockaddr_in to;
    socklen_t len = sizeof to;
    getsockname(rx, (void *) &to, &len);

    n = 1000000;
    t0 = now_ns();
    for (int i = 0; i < n; i++) recv(tx, buf, sizeof buf, 0);
    printf("recv of an empty socket: %.0f ns\n", (now_ns() - t0) / n);

    n = 200000;
    double sent = 0, read = 0;
    for (int k = 0; k < n / 100; k++) {
        double a = now_ns();
        for (int i = 0; i < 100; i++) sendto(tx, buf, 172, 0, (void *) &to, sizeof to);
        double b = now_ns();
        for (int i = 0; i < 100; i++) recv(rx, buf, sizeof buf, 0);
        double c = now_ns();
        sent += b - a;
        read += c - b;
    }
    printf("sendto of 172 bytes on loopback: %.0f ns; its recv: %.0f ns\n", sent / n, read / n);
    return 0;
}
