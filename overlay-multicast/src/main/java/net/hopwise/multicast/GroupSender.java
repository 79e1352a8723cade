package net.hopwise.multicast;

/**
 * One sending client of a group on a port: under Cost-Benefit flow control it has a budget of its
 * own, as each client of the thesis does, and the node buys its packets for it. Fetched with {@link
 * Multicast#sender}; callable from any thread.
 *
 * <p>Back-pressure never blocks a thread: {@link #send} hands a message to the node, which holds it
 * until the client can afford its packets; while it holds one, the sender is not {@link #writable()}
 * and a further send returns {@link SendResult.Status#BLOCKED}. The node calls the {@link #onWritable}
 * listener, on its own thread, once the held message has left. Without flow control the node
 * takes at most its sendQueueLimit of messages not yet sent from all plain senders together; beyond
 * it a send returns {@link SendResult.Status#BLOCKED} and the listener runs once half have gone.
 */
public interface GroupSender extends AutoCloseable {
    GroupId group();

    int port();

    /** Sends a message to the group's members on the port; see the class comment for back-pressure. */
    SendResult send(byte[] payload);

    /** Whether a send now would be taken rather than refused as blocked. */
    boolean writable();

    /**
     * Runs {@code listener} on the node's thread each time the sender becomes writable again. Keep it
     * short (it may send the next message); it replaces any earlier listener.
     */
    void onWritable(Runnable listener);

    /** What this sender sent and what flow control did to it. */
    SenderStatistics statistics();

    /** Stops the sender: a message it still held is dropped; further sends are refused. */
    @Override
    void close();
}
