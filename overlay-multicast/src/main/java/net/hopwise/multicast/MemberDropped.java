package net.hopwise.multicast;

import net.hopwise.overlay.NodeId;

/**
 * A local member taken out of a group because its node could not keep up with a reliable stream (see
 * {@link SlowMemberPolicy}): it receives nothing more from the group and may join again.
 *
 * @param source the sender whose stream it could not follow
 * @param reason what was lost, in words
 */
public record MemberDropped(GroupId group, int port, NodeId source, String reason) {}
