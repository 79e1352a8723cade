package net.hopwise.multicast.layered;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.WeakHashMap;
import net.hopwise.multicast.GroupId;
import net.hopwise.multicast.Multicast;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.StagePosition;

/**
 * Layered multicast with ERA congestion control on a node with the multicast module: what {@link
 * Multicast#openLayeredSender} and {@link Multicast#joinLayered} reach, also offered as {@code
 * OverlayNode.module(LayeredMulticast.class)}. Callable from any thread. See {@code
 * docs/multicast.md}.
 */
public final class LayeredMulticast {
    /** The multicast API of each node to its layered service: the module's stage does not hold it. */
    private static final Map<Multicast, LayeredMulticast> NODES = Collections.synchronizedMap(new WeakHashMap<>());

    private final LayeredService service;

    private LayeredMulticast(LayeredService service) {
        this.service = service;
    }

    /**
     * Installs the layered service beside a node's multicast stage: its packet types, its stage (just
     * after {@code multicastStage}, taking only its own types) and its API. Only from {@code
     * OverlayModule.install}.
     */
    public static void install(ModuleContext context, Multicast multicast, String multicastStage) {
        context.registerPacketType(LayeredWire.DATA, "multicast-layered-data");
        context.registerPacketType(LayeredWire.ANNOUNCE, "multicast-layered-announce");
        context.registerPacketType(LayeredWire.SUBSCRIBE, "multicast-layered-subscribe");
        LayeredService service = new LayeredService(context, multicast);
        context.addStage(multicastStage + "-layered", StagePosition.after(multicastStage), service);
        LayeredMulticast api = new LayeredMulticast(service);
        NODES.put(multicast, api);
        context.provide(LayeredMulticast.class, api);
    }

    /**
     * The layered service of the node whose multicast API this is.
     *
     * @throws IllegalStateException when that node was built without it
     */
    public static LayeredMulticast of(Multicast multicast) {
        LayeredMulticast api = NODES.get(Objects.requireNonNull(multicast, "multicast"));
        if (api == null) {
            throw new IllegalStateException("this multicast node has no layered service");
        }
        return api;
    }

    /**
     * Starts a layered session from this node to a group's port: every layer at its constant rate
     * from one adaptation interval on, announced every {@code config.announceEveryIntervals()}
     * intervals down the source's tree under {@code metric} (null: the node's default).
     *
     * @throws IllegalArgumentException for a bad group or port, or a packet size this node's headers
     *     leave no room in
     * @throws IllegalStateException when the node is stopped
     */
    public LayeredSender openSender(String group, int port, LayerRates layers, EraConfig config, RoutingMetric metric) {
        GroupId id = GroupId.ofName(group);
        requirePort(port);
        return service.openSender(id, port, Objects.requireNonNull(layers, "layers"),
                Objects.requireNonNull(config, "config"), metric);
    }

    /**
     * A receiver on a group's port: the node joins the group, the receiver joins the first session
     * announced there and then holds the layers its path carries, under ERA's rules with {@code
     * config}'s receiver parameters (the announcement's packet size and interval are the session's).
     *
     * @throws IllegalArgumentException for a bad group or port
     * @throws IllegalStateException when the node is stopped
     */
    public LayeredReceiver join(String group, int port, EraConfig config, LayeredHandler handler) {
        GroupId id = GroupId.ofName(group);
        requirePort(port);
        return service.join(id, group, port, Objects.requireNonNull(config, "config"),
                Objects.requireNonNull(handler, "handler"));
    }

    LayeredService service() {
        return service;
    }

    private static void requirePort(int port) {
        if (port < 0 || port > Multicast.MAX_PORT) {
            throw new IllegalArgumentException("port must be 0-" + Multicast.MAX_PORT + ", got " + port);
        }
    }
}
