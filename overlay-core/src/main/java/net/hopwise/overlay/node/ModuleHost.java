package net.hopwise.overlay.node;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.NodeListener;
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.spi.LinkStateExtension;
import net.hopwise.overlay.spi.LinkView;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.OverlayModule;
import net.hopwise.overlay.spi.PerLink;
import net.hopwise.overlay.spi.RouteView;
import net.hopwise.overlay.spi.Stage;
import net.hopwise.overlay.spi.StagePosition;
import net.hopwise.overlay.wire.WireHeader;

/**
 * The node's side of the module SPI: one {@link ModuleContext} per installed module, and what the
 * modules registered (packet types, API objects, per-link state).
 *
 * <p>About 500 lines, over the house's 400: one context per module, the registrations it makes and the
 * views it gets, each a short method of the SPI it implements (routes live in {@code ModuleRoutes}).
 */
final class ModuleHost {
    private final NodeContext node;
    private final FrameStage frames;
    /** Stages the modules asked for, placed once the core chain is built. */
    private final List<PendingStage> pendingStages = new ArrayList<>();
    private final List<String> datagramStageNames = new ArrayList<>();
    private final List<net.hopwise.overlay.spi.DatagramStage> datagramStages = new ArrayList<>();
    /** The module that added each datagram stage: only it may send that stage's own datagrams. */
    private final List<String> datagramStageModules = new ArrayList<>();
    private final Map<Integer, LinkStateExtension.Listener> extensionListeners = new HashMap<>();
    private final Map<Integer, String> packetTypes = new HashMap<>();
    private final Map<Class<?>, Object> apis = new HashMap<>();
    /** The receivers of the module types that ride real-time channels, by type code. */
    private final net.hopwise.overlay.spi.RealTimeReceiver[] realTimeReceivers =
            new net.hopwise.overlay.spi.RealTimeReceiver[256];
    private final List<LinkStates<?>> perLink = new ArrayList<>();
    private final ModuleRoutes routes;
    private MeterRegistry meters;
    /** Where datagrams from a link's own transport enter the chain. */
    interface Receiver {
        void receive(java.net.InetSocketAddress from, ByteBuf datagram);
    }

    private Receiver receiver;

    void receiver(Receiver receiver) {
        this.receiver = receiver;
    }

    private final Map<Integer, String> extensionKinds = new HashMap<>();

    /** The module that signs link state, and its signer; null when nobody does. */
    private String signerModule;
    /** Set once the core stages exist: what only building may change is fixed from then on. */
    private boolean built;
    private net.hopwise.overlay.spi.LinkStateSigner linkStateSigner;

    private record PendingStage(String module, String name, StagePosition position, Stage stage) {}

    ModuleHost(NodeContext node, FrameStage frames) {
        this.node = node;
        this.frames = frames;
        this.routes = new ModuleRoutes(node);
    }

    /** Bytes the modules' datagram stages add to every datagram, together. */
    int datagramOverhead() {
        int sum = 0;
        for (net.hopwise.overlay.spi.DatagramStage d : datagramStages) {
            sum += d.overhead();
        }
        return sum;
    }

    List<String> datagramStageNames() {
        return datagramStageNames;
    }

    List<net.hopwise.overlay.spi.DatagramStage> datagramStages() {
        return datagramStages;
    }

    /** Puts the modules' stages into the core chain and their record listeners on the routing stage. */
    /** The signer a module installed for the node's link state; null if none. */
    net.hopwise.overlay.spi.LinkStateSigner linkStateSigner() {
        return linkStateSigner;
    }

    void place(StageChain chain, RoutingStage routing) {
        built = true;
        for (PendingStage p : pendingStages) {
            try {
                chain.insert(p.name(), p.position(), p.stage());
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("module " + p.module() + " failed to install on node "
                        + node.config().name() + ": " + e.getMessage(), e);
            }
        }
        for (String name : datagramStageNames) {
            if (chain.names().contains(name)) {
                throw new IllegalStateException("a datagram stage is named " + name + ", as a stage of the chain is");
            }
        }
        extensionListeners.forEach(routing::listenToExtension);
        node.realTime.modules.receivers(realTimeReceivers);
    }

    void install(OverlayModule module) {
        try {
            module.install(new Context(module.name()));
        } catch (RuntimeException e) {
            throw new IllegalStateException("module " + module.name() + " failed to install on node "
                    + node.config().name() + ": " + e.getMessage(), e);
        }
    }

    <T> T api(Class<T> type) {
        return type.cast(apis.get(type));
    }

    void linkRemoved(Neighbour n) {
        for (LinkStates<?> states : perLink) {
            states.values.remove(n);
        }
    }

    private MeterRegistry meters() {
        if (meters == null) {
            MeterRegistry configured = node.config().meterRegistry();
            meters = configured != null ? configured : new SimpleMeterRegistry();
        }
        return meters;
    }

    private final class Context implements ModuleContext {
        private final String module;
        /**
         * The packet types this module registered, by code: checked on every send, where looking the
         * holder up by name cost a map lookup and a substring per datagram (about 5% of a relay's loop).
         */
        private final boolean[] claimed = new boolean[256];

        Context(String module) {
            this.module = module;
        }

        @Override
        public NodeConfig config() {
            return node.config();
        }

        @Override
        public NodeId self() {
            return node.id();
        }

        @Override
        public void admitSessions(net.hopwise.overlay.spi.SessionAdmission admission) {
            node.sessionAdmission = admission;
        }

        @Override
        public long nowNanos() {
            return node.now();
        }

        @Override
        public ByteBufAllocator allocator() {
            return node.allocator();
        }

        @Override
        public void registerPacketType(int code, String name) {
            if (!WireHeader.isModuleType(code)) {
                throw new IllegalArgumentException("module " + module + ": packet type " + code + " (" + name
                        + ") is outside the module range " + FIRST_MODULE_TYPE + "-" + LAST_MODULE_TYPE);
            }
            String holder = packetTypes.putIfAbsent(code, module + "/" + name);
            if (holder != null) {
                throw new IllegalArgumentException("module " + module + ": packet type " + code + " is taken by "
                        + holder);
            }
            frames.claim(code);
            claimed[code] = true;
        }

        @Override
        public void addStage(String name, StagePosition position, Stage stage) {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(position, "position");
            pendingStages.add(new PendingStage(module, name, position, Objects.requireNonNull(stage, "stage")));
        }

        @Override
        public void addDatagramStage(String name, net.hopwise.overlay.spi.DatagramStage stage) {
            Objects.requireNonNull(stage, "stage");
            if (datagramStageNames.contains(Objects.requireNonNull(name, "name"))) {
                throw new IllegalArgumentException("a datagram stage named " + name + " is already installed");
            }
            if (stage.overhead() < 0 || datagramOverhead() + stage.overhead() > WireHeader.MAX_DATAGRAM / 4) {
                throw new IllegalArgumentException("module " + module + ": datagram stage " + name + " adds "
                        + stage.overhead() + " bytes; all datagram stages together may add at most "
                        + WireHeader.MAX_DATAGRAM / 4 + " of a datagram's " + WireHeader.MAX_DATAGRAM);
            }
            datagramStageNames.add(name);
            datagramStages.add(stage);
            datagramStageModules.add(module);
        }

        @Override
        public void sendDatagram(net.hopwise.overlay.spi.DatagramStage from, java.net.InetSocketAddress to,
                ByteBuf datagram) {
            int index = -1;
            for (int i = 0; i < datagramStages.size(); i++) {
                if (datagramStages.get(i) == from && datagramStageModules.get(i).equals(module)) {
                    index = i;
                }
            }
            if (index < 0 || to == null) {
                datagram.release();
                throw new IllegalArgumentException(to == null ? "a datagram needs an address"
                        : "module " + module + " sends datagrams only of a datagram stage it added");
            }
            node.transmitOwn(index, to, datagram);
        }

        @Override
        public void moveNeighbour(LinkView link, java.net.InetSocketAddress address) {
            Neighbour n = current(link);
            if (n != null && !n.address.equals(Objects.requireNonNull(address, "address"))) {
                node.links.moveNeighbour(n, address);
            }
        }

        @Override
        public RouteView routes() {
            return routes;
        }

        @Override
        public List<? extends LinkView> links() {
            return node.neighbourValues();
        }

        @Override
        public LinkView link(NodeId neighbour) {
            return node.neighbour(neighbour.value());
        }

        @Override
        public boolean send(LinkView link, int type, ByteBuf body) {
            return send(link, type, body, false);
        }

        @Override
        public boolean sendImmediately(LinkView link, int type, ByteBuf body) {
            return send(link, type, body, true);
        }

        private boolean send(LinkView link, int type, ByteBuf body, boolean now) {
            try {
                Neighbour n = current(link);
                if (n == null || !n.writable()) {
                    return false;
                }
                requireClaimed(type);
                requireFits(body);
                node.sendBody(n, type, body, now);
                return true;
            } finally {
                body.release();
            }
        }

        @Override
        public int fanOut(List<? extends LinkView> links, int type, ByteBuf body) {
            try {
                requireClaimed(type);
                requireFits(body);
                List<Neighbour> to = new ArrayList<>(links.size());
                for (LinkView l : links) {
                    Neighbour n = current(l);
                    if (n != null && n.writable()) {
                        to.add(n);
                    }
                }
                return node.fanOut(to, type, body);
            } finally {
                body.release();
            }
        }

        @Override
        public boolean sendRealTime(LinkView link, int type, ByteBuf body, long deadlineNanos) {
            try {
                requireClaimed(type);
                node.realTime.modules.requireFits(module, body);
                Neighbour n = current(link);
                if (n == null || !n.writable()) {
                    return false;
                }
                node.realTime.modules.send(n, type, body, deadlineNanos);
                return true;
            } finally {
                body.release();
            }
        }

        @Override
        public void receiveRealTime(int type, net.hopwise.overlay.spi.RealTimeReceiver receiver) {
            Objects.requireNonNull(receiver, "receiver");
            if (built) {
                throw new IllegalStateException("module " + module + ": real-time receivers are registered while the"
                        + " node is built");
            }
            requireClaimed(type);
            if (realTimeReceivers[type] != null) {
                throw new IllegalArgumentException("module " + module + ": packet type " + type
                        + " already has a real-time receiver");
            }
            realTimeReceivers[type] = receiver;
        }

        private Neighbour current(LinkView link) {
            Neighbour n = link == null ? null : node.neighbour(link.id().value());
            return n == link ? n : null;
        }

        private void requireClaimed(int type) {
            if (type < 0 || type >= claimed.length || !claimed[type]) {
                throw new IllegalArgumentException("module " + module + " sends packet type " + type
                        + ", which it did not register");
            }
        }

        private void requireFits(ByteBuf body) {
            if (body.readableBytes() > node.maxBody()) {
                throw new IllegalArgumentException("module " + module + ": a body of " + body.readableBytes()
                        + " bytes exceeds the " + node.maxBody() + " a datagram of this node carries");
            }
        }

        @Override
        public void setTransport(LinkView link, net.hopwise.overlay.spi.LinkTransport transport) {
            Neighbour n = current(link);
            if (n == null) {
                throw new IllegalArgumentException("module " + module + ": " + link + " is not a link of node "
                        + node.config().name());
            }
            n.transport = transport;
        }

        @Override
        public void receive(LinkView link, ByteBuf datagram) {
            Neighbour n = current(link);
            if (n == null) {
                throw new IllegalArgumentException("module " + module + ": " + link + " is not a link of node "
                        + node.config().name());
            }
            receiver.receive(n.address(), datagram);
        }

        @Override
        public int headroom() {
            return WireHeader.LENGTH;
        }

        @Override
        public int maxBody() {
            return node.maxBody();
        }

        @Override
        public void addListener(NodeListener listener) {
            node.addListener(Objects.requireNonNull(listener, "listener"));
        }

        @Override
        public <T> PerLink<T> perLink(Function<LinkView, T> initial) {
            LinkStates<T> states = new LinkStates<>(Objects.requireNonNull(initial, "initial"));
            perLink.add(states);
            return states;
        }

        @Override
        public void signLinkState(net.hopwise.overlay.spi.LinkStateSigner signer) {
            Objects.requireNonNull(signer, "signer");
            if (built) {
                throw new IllegalStateException("module " + module + ": link state is signed while the node is built");
            }
            if (signerModule != null) {
                throw new IllegalStateException("module " + module + ": link state is already signed by module "
                        + signerModule);
            }
            signerModule = module;
            linkStateSigner = signer;
        }

        @Override
        public LinkStateExtension linkStateExtension(int kind, LinkStateExtension.Listener listener) {
            if (kind < 1 || kind > 0xFFFF) {
                throw new IllegalArgumentException("module " + module + ": link-state record kind must be 1-65535, got "
                        + kind);
            }
            String holder = extensionKinds.putIfAbsent(kind, module);
            if (holder != null) {
                throw new IllegalArgumentException("module " + module + ": link-state record kind " + kind
                        + " is taken by module " + holder);
            }
            if (listener != null) {
                extensionListeners.put(kind, listener);
            }
            return new Extension(kind);
        }

        @Override
        public int maxExtensionBytes() {
            if (node.router == null) {
                throw new IllegalStateException("module " + module + ": maxExtensionBytes is known once the node is built"
                        + " (ask from a stage, a listener or the module's API, not in install)");
            }
            return node.router.maxExtensionBytes();
        }

        @Override
        public DropCounter dropReason(String reason) {
            return node.counters().moduleDrop(Objects.requireNonNull(reason, "reason"));
        }

        @Override
        public MeterRegistry meterRegistry() {
            return meters();
        }

        @Override
        public <T> void provide(Class<T> type, T api) {
            Objects.requireNonNull(api, "api");
            if (!type.isInstance(api)) {
                throw new IllegalArgumentException(api + " is not a " + type.getName());
            }
            if (apis.putIfAbsent(type, api) != null) {
                throw new IllegalArgumentException("module " + module + ": another module provides "
                        + type.getName());
            }
        }

        @Override
        public void execute(Runnable task) {
            node.execute(task);
        }
    }

    /** A module's records of one kind, published through the router's flooding. */
    private final class Extension implements LinkStateExtension {
        private final int kind;

        Extension(int kind) {
            this.kind = kind;
        }

        @Override
        public int kind() {
            return kind;
        }

        @Override
        public void publish(byte[] record) {
            node.router().publishExtension(kind, Objects.requireNonNull(record, "record").clone(), node.now());
        }

        @Override
        public void withdraw() {
            node.router().publishExtension(kind, null, node.now());
        }

        @Override
        public Map<NodeId, byte[]> records() {
            return node.router().extensions(kind);
        }
    }

    private static final class LinkStates<T> implements PerLink<T> {
        private final Function<LinkView, T> initial;
        private final Map<LinkView, T> values = new IdentityHashMap<>();

        LinkStates(Function<LinkView, T> initial) {
            this.initial = initial;
        }

        @Override
        public T get(LinkView link) {
            return values.computeIfAbsent(link, initial);
        }

        @Override
        public T peek(LinkView link) {
            return values.get(link);
        }
    }
}
