package net.hopwise.overlay.routing;

import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.wire.DropReason;

/** Records what a router emits, for tests that drive one router by hand. */
final class CapturingOutput implements RouterOutput {
    record Sent(NodeId to, LinkStateUpdate update, LinkStateAck ack) {}

    record Rejection(NodeId from, DropReason reason) {}

    final List<Sent> sent = new ArrayList<>();
    final List<Rejection> rejections = new ArrayList<>();
    int routeChanges;

    @Override
    public void sendUpdate(NodeId neighbour, LinkStateUpdate update) {
        sent.add(new Sent(neighbour, update, null));
    }

    @Override
    public void sendAck(NodeId neighbour, LinkStateAck ack) {
        sent.add(new Sent(neighbour, null, ack));
    }

    @Override
    public void routesChanged(long nowNanos) {
        routeChanges++;
    }

    @Override
    public void advertisementRejected(NodeId from, DropReason reason) {
        rejections.add(new Rejection(from, reason));
    }

    /** Every ack entry sent to {@code to}, in order. */
    List<LinkStateAck.AckEntry> ackEntriesTo(NodeId to) {
        return acksTo(to).stream().flatMap(a -> a.entries().stream()).toList();
    }

    List<LinkStateUpdate> updatesTo(NodeId to) {
        return sent.stream().filter(s -> s.to().equals(to) && s.update() != null).map(Sent::update).toList();
    }

    List<LinkStateAck> acksTo(NodeId to) {
        return sent.stream().filter(s -> s.to().equals(to) && s.ack() != null).map(Sent::ack).toList();
    }

    List<LinkStateAdvertisement> advertisementsTo(NodeId to) {
        return updatesTo(to).stream().flatMap(u -> u.advertisements().stream()).toList();
    }

    void clear() {
        sent.clear();
        rejections.clear();
    }
}
