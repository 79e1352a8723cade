package net.hopwise.multicast;

import java.util.concurrent.atomic.AtomicBoolean;

/** A local member's handle: its group, port and handler, and whether it left. */
final class LocalMember implements Membership {
    private final GroupId group;
    private final String groupName;
    private final int port;
    private final MessageHandler handler;
    private final MulticastStage stage;
    private final AtomicBoolean left = new AtomicBoolean();

    LocalMember(GroupId group, String groupName, int port, MessageHandler handler, MulticastStage stage) {
        this.group = group;
        this.groupName = groupName;
        this.port = port;
        this.handler = handler;
        this.stage = stage;
    }

    @Override
    public GroupId group() {
        return group;
    }

    @Override
    public String groupName() {
        return groupName;
    }

    @Override
    public int port() {
        return port;
    }

    MessageHandler handler() {
        return handler;
    }

    boolean left() {
        return left.get();
    }

    @Override
    public void leave() {
        if (left.compareAndSet(false, true)) {
            stage.leave(this);
        }
    }

    @Override
    public String toString() {
        return "member of " + groupName + " on port " + port + (left.get() ? " (left)" : "");
    }
}
