package net.hopwise.overlay.routing;

import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.wire.DropReason;

/** Records what a router emits, for tests that drive one router by hand. */
class CapturingOutput implements RouterOutput {
    record Sent(NodeId to, LinkStateUpdate update, LinkStateAck ack) {}

    record Rejection(NodeId from, DropReason reason) {}

    record ExtensionSent(NodeId to, ExtensionUpdate update, ExtensionAck ack) {}

    record ExtensionChange(NodeId origin, int kind, byte[] record) {}

    final List<Sent> sent = new ArrayList<>();
    final List<ExtensionSent> extensionsSent = new ArrayList<>();
    final List<ExtensionChange> extensionChanges = new ArrayList<>();
    final List<Rejection> rejections = new ArrayList<>();
    int routeChanges;
    final List<Integer> linksLeftOut = new ArrayList<>();

    @Override
    public void linksLeftOut(int leftOut, int neighbours) {
        linksLeftOut.add(leftOut);
    }

    @Override
    public void sendUpdate(NodeId neighbour, LinkStateUpdate update) {
        sent.add(new Sent(neighbour, update, null));
    }

    @Override
    public void sendAck(NodeId neighbour, LinkStateAck ack) {
        sent.add(new Sent(neighbour, null, ack));
    }

    @Override
    public void sendExtensionUpdate(NodeId neighbour, ExtensionUpdate update) {
        extensionsSent.add(new ExtensionSent(neighbour, update, null));
    }

    @Override
    public void sendExtensionAck(NodeId neighbour, ExtensionAck ack) {
        extensionsSent.add(new ExtensionSent(neighbour, null, ack));
    }

    @Override
    public void extensionChanged(NodeId origin, int kind, byte[] record) {
        extensionChanges.add(new ExtensionChange(origin, kind, record));
    }

    /** Every extension record sent to {@code to}, in order. */
    List<ExtensionRecord> extensionRecordsTo(NodeId to) {
        return extensionsSent.stream().filter(s -> s.to().equals(to) && s.update() != null)
                .flatMap(s -> s.update().records().stream()).toList();
    }

    /** Every extension ack entry sent to {@code to}, in order. */
    List<ExtensionAck.Entry> extensionAcksTo(NodeId to) {
        return extensionsSent.stream().filter(s -> s.to().equals(to) && s.ack() != null)
                .flatMap(s -> s.ack().entries().stream()).toList();
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
        extensionsSent.clear();
        extensionChanges.clear();
        rejections.clear();
    }
}
