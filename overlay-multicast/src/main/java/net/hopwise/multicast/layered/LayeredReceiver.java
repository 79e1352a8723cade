package net.hopwise.multicast.layered;

import java.util.List;
import java.util.function.Consumer;
import net.hopwise.overlay.NodeId;

/**
 * A receiver of a layered session, from {@code Multicast.joinLayered}: an ERA receiver on the node
 * that joins the first session announced on its group and port, and then holds as many layers as
 * its path carries. Readable from any thread; listeners run on the node's thread.
 */
public interface LayeredReceiver extends AutoCloseable {
    /** The highest layer held, -1 before the first valid announcement, after leaving, or when none fits. */
    int level();

    /** The cumulative rate of the level held, bits per second; 0 when none. */
    long rateBitsPerSecond();

    /** The announcement of the session joined, or null before one arrived. */
    SessionAnnouncement announcement();

    /** The session's source, or null before an announcement arrived. */
    NodeId source();

    /** Data packets of held layers received. */
    long packetsReceived();

    /** The level changes so far, oldest first; the latest 256 at most. */
    List<LevelChange> history();

    /** Hears each level change from now on (on the node's thread). */
    void onLevelChange(Consumer<LevelChange> listener);

    /** Hears each of the ERA receiver's decisions, for validation (on the node's thread). */
    void onDecision(Consumer<EraDecision> listener);

    /** Leaves every layer; the node prunes what nobody else downstream holds. Idempotent. */
    void leave();

    @Override
    default void close() {
        leave();
    }
}
