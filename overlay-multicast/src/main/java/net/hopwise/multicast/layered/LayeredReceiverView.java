package net.hopwise.multicast.layered;

import java.util.List;
import net.hopwise.multicast.GroupId;
import net.hopwise.overlay.NodeId;

/**
 * One layered receiver on a node at one instant, for operators: what {@link
 * LayeredMulticast#receivers()} lists.
 *
 * @param source the session's source, null before an announcement
 * @param sessionId the session's number at its source, -1 before an announcement
 * @param level the highest layer held, -1 for none
 * @param history the latest level changes, oldest first
 */
public record LayeredReceiverView(GroupId group, int port, NodeId source, int sessionId, int level,
        long rateBitsPerSecond, long packetsReceived, List<LevelChange> history) {}
