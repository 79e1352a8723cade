package net.hopwise.voip.relay;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.voip.sip.NameAddr;
import net.hopwise.voip.sip.SipMessage;

/**
 * Where a request goes next (RFC 3261 sections 16.4 and 16.5): past this relay's own Route values,
 * to the next Route (another node's relay when it carries that node's name, else its address); for
 * an in-dialog request without one, to the other side of the dialog; for a new request, to the node
 * the dial plan names or, at the callee's relay, to the registered contact or the Request-URI's
 * address. The relay resolves no names: phones are reached at IP literals.
 */
final class RequestRouting {
    /** A request's next hop (with a new Request-URI and the count of own Route values to pop), or a status. */
    record Target(Hop hop, String requestUri, int ownRoutes, int status) {
        static Target fail(int status) {
            return new Target(null, null, 0, status);
        }
    }

    private final String nodeName;
    private final RelayConfig config;
    private final int sipPort;
    private final Registrar registrar;
    private final Calls calls;
    private final RelayCounters counters;
    /** Other relays' published registrations; null when the node has no directory. */
    private RegistrationDirectory directory;

    RequestRouting(String nodeName, RelayConfig config, int sipPort, Registrar registrar, Calls calls,
            RelayCounters counters) {
        this.nodeName = nodeName;
        this.config = config;
        this.sipPort = sipPort;
        this.registrar = registrar;
        this.calls = calls;
        this.counters = counters;
    }

    void directory(RegistrationDirectory d) {
        this.directory = d;
    }

    /**
     * Where a request goes (section 16.4 and 16.5): Route, then the dialog, then the dial plan's other
     * node, this relay's registrar, and for a phone's request the node where another relay published
     * the callee's registration.
     */
    Target route(SipMessage m, Hop from, long now) {
        List<NameAddr> routes = m.routes();
        if (routes == null) {
            return Target.fail(400);
        }
        int own = 0;
        while (own < routes.size() && isMine(SipUri.parse(routes.get(own).uri()))) {
            own++;
        }
        if (own < routes.size()) {
            SipUri next = SipUri.parse(routes.get(own).uri());
            if (next == null) {
                return Target.fail(416);
            }
            String node = next.param("hwnode");
            if (node != null) {
                return new Target(new Hop.Node(node), null, own, 0);
            }
            Hop.Phone phone = phoneAt(next);
            return phone == null ? Target.fail(404) : new Target(phone, null, own, 0);
        }
        if (m.toTag() != null) {
            Call call = calls.get(m.callId());
            Hop peer = call == null ? null : call.peerOf(m.fromTag(), m.toTag());
            if (peer == null) {
                counters.unknownDialog++;
                return Target.fail(481);
            }
            return new Target(peer, null, own, 0);
        }
        return targets(m, from, now).get(0);
    }

    /**
     * Every next hop of a new request, in order (section 16.5: the target set): each node the dial
     * plan names, each contact registered here for the callee, and, for a phone's request that no
     * rule covers, each node where another relay published the callee's registration (only for a
     * phone's request: one from another node that found no binding here must not travel on). One
     * failed target when there is none. Only an INVITE is forked on all of them; other
     * requests take the first.
     */
    List<Target> targets(SipMessage m, Hop from, long now) {
        List<NameAddr> routes = m.routes();
        if (routes == null) {
            return List.of(Target.fail(400));
        }
        int own = 0;
        while (own < routes.size() && isMine(SipUri.parse(routes.get(own).uri()))) {
            own++;
        }
        if (own < routes.size() || m.toTag() != null) {
            return List.of(route(m, from, now));
        }
        SipUri uri = SipUri.parse(m.requestUri());
        if (uri == null) {
            return List.of(Target.fail(416));
        }
        List<String> nodes = config.dialPlan().nodesFor(uri);
        List<Registrar.Binding> bindings = registrar.lookupAll(uri, now);
        List<Target> out = new ArrayList<>();
        boolean local = nodes.isEmpty() || nodes.contains(nodeName);
        for (String node : nodes) {
            if (!node.equals(nodeName)) {
                out.add(new Target(new Hop.Node(node), null, own, 0));
            }
        }
        if (local) {
            for (Registrar.Binding b : bindings) {
                out.add(new Target(new Hop.Phone(b.source(), b.tcp()), b.contactUri(), own, 0));
            }
        }
        if (nodes.isEmpty() && from instanceof Hop.Phone && directory != null) {
            for (String node : directory.nodesServing(uri.addressOfRecord(), uri.user())) {
                out.add(new Target(new Hop.Node(node), null, own, 0));
            }
        }
        if (!out.isEmpty()) {
            return out;
        }
        if (!nodes.isEmpty() && from instanceof Hop.Node) {
            Hop.Phone phone = phoneAt(uri);
            if (phone != null && !isMine(uri)) {
                return List.of(new Target(phone, null, own, 0));
            }
            return List.of(Target.fail(480));
        }
        counters.noRoute++;
        return List.of(Target.fail(404));
    }

    /** A phone reached at a URI's host and port: IP literals only, the relay does no DNS. */
    private static Hop.Phone phoneAt(SipUri uri) {
        InetAddress address = Calls.literal(uri.host());
        if (address == null) {
            return null;
        }
        boolean tcp = "tcp".equalsIgnoreCase(uri.param("transport"));
        return new Hop.Phone(new InetSocketAddress(address, uri.port() < 0 ? 5060 : uri.port()), tcp);
    }

    boolean isMine(SipUri uri) {
        if (uri == null) {
            return false;
        }
        String node = uri.param("hwnode");
        if (node != null) {
            return node.equals(nodeName);
        }
        return uri.user() == null && uri.host().equals(config.advertisedHost().toLowerCase(java.util.Locale.ROOT))
                && (uri.port() < 0 ? 5060 : uri.port()) == sipPort;
    }

}
