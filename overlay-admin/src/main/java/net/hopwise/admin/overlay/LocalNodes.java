package net.hopwise.admin.overlay;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import net.hopwise.overlay.OverlayNode;

/**
 * The overlay nodes this process runs: the service's own node, whose link-state database is the view
 * of the whole overlay, and in the demo its in-process siblings too. Links with a local end can be
 * measured in full and impaired; links between two remote nodes are known only by what is flooded.
 */
public final class LocalNodes implements AutoCloseable {
    private final OverlayNode self;
    private final Map<String, OverlayNode> nodes;
    private final boolean demo;
    private final AutoCloseable resources;

    /**
     * @param self the service's own node
     * @param nodes every local node by name, {@code self} included
     * @param demo whether this is the demo overlay
     * @param resources what to close after the nodes stop (threads, runtimes)
     */
    public LocalNodes(OverlayNode self, Map<String, OverlayNode> nodes, boolean demo, AutoCloseable resources) {
        this.self = Objects.requireNonNull(self, "self");
        this.nodes = Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
        if (this.nodes.get(self.name()) != self) {
            throw new IllegalArgumentException("the local nodes must include self");
        }
        this.demo = demo;
        this.resources = resources;
    }

    /** One node, run on its own. */
    public static LocalNodes single(OverlayNode node) {
        return new LocalNodes(node, Map.of(node.name(), node), false, null);
    }

    public OverlayNode self() {
        return self;
    }

    /** Every node this process runs, by name. */
    public Map<String, OverlayNode> all() {
        return nodes;
    }

    /** Every local node, the service's own first: the order of the per-node views. */
    public List<OverlayNode> selfFirst() {
        List<OverlayNode> list = new ArrayList<>();
        list.add(self);
        nodes.values().stream().filter(n -> n != self).forEach(list::add);
        return list;
    }

    /** The local node of that name, or null. */
    public OverlayNode get(String name) {
        return nodes.get(name);
    }

    public boolean isLocal(String name) {
        return nodes.containsKey(name);
    }

    public boolean demo() {
        return demo;
    }

    @Override
    public void close() {
        for (OverlayNode n : nodes.values()) {
            n.stop();
        }
        if (resources != null) {
            try {
                resources.close();
            } catch (Exception e) {
                throw new IllegalStateException("stopping the overlay's resources failed", e);
            }
        }
    }
}
