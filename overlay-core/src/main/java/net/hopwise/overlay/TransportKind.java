package net.hopwise.overlay;

/** Which Netty transport carries a node's UDP socket. */
public enum TransportKind {
    /** Native epoll where the platform has it (Linux x86_64 and aarch64), NIO elsewhere. */
    AUTO,
    /** Java NIO on every platform. */
    NIO,
    /** Native epoll; starting fails with a clear message where it is not available. */
    EPOLL
}
