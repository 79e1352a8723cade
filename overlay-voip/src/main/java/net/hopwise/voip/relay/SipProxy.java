package net.hopwise.voip.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.voip.sip.SipMessage;
import net.hopwise.voip.sip.SipMessageEditor;
import net.hopwise.voip.sip.SipParseError;
import net.hopwise.voip.sip.SipParseResult;
import net.hopwise.voip.sip.SipParser;
import net.hopwise.voip.sip.SipRequests;

/**
 * The relay's SIP logic: a record-routing, transaction-stateful proxy (RFC 3261 section 16) whose
 * next hop is either a phone of its site or the relay of another overlay node. It answers INVITEs
 * with 100 Trying, adds its Via (with a loop-detection hash) and Record-Route, decrements
 * Max-Forwards, routes by Route, then by the dialog table, then by dial plan, registrar and the
 * registrations other relays published ({@link RegistrationDirectory}), turns
 * CANCEL into a CANCEL of the forwarded branch, absorbs retransmissions and the hop-by-hop ACK, and
 * has every SDP rewritten on the way ({@link Calls}). Sans-IO: messages and time come in, output
 * goes to {@link SignalIo} and {@link MediaIo}. One relay loop; not thread-safe.
 *
 * <p>Over the house's 400 lines: transactions ({@link Transactions}), forking ({@link Forks}), routing
 * ({@link RequestRouting}), the way back ({@link ResponsePath}), the registrar and the calls are classes
 * of their own; what stays is the request flow of RFC 3261 section 16, which reads best as the section
 * does, in one place.
 */
public final class SipProxy implements MediaSink {
    final String nodeName;
    final RelayConfig config;
    final SignalIo signal;
    final ByteBufAllocator alloc;
    final SipParser parser = new SipParser();
    final RelayCounters counters = new RelayCounters();
    private final RequestRateGuard guard;
    final Transactions transactions = new Transactions();
    final Registrar registrar;
    final Calls calls;
    final ProxyMessages words;
    final ResponsePath responses;
    final Forks forks = new Forks(this);
    final RequestRouting routing;
    final MessageSdp sdp;
    private final int sipPort;
    /** Where the site's registrations are published for other relays; null: dial plan alone. */
    private RegistrationDirectory directory;
    private long publishedVersion;

    public SipProxy(String nodeName, RelayConfig config, int sipPort, SignalIo signal, MediaIo media,
            ByteBufAllocator alloc) {
        this.nodeName = nodeName;
        this.config = config;
        this.sipPort = sipPort;
        this.signal = signal;
        this.alloc = alloc;
        this.registrar = new Registrar(config.minExpires(), config.maxExpires());
        this.publishedVersion = -1;
        this.calls = new Calls(config, media, counters);
        this.words = new ProxyMessages(nodeName, config.advertisedHost(), sipPort);
        this.responses = new ResponsePath(this);
        this.sdp = new MessageSdp(calls);
        this.routing = new RequestRouting(nodeName, config, sipPort, registrar, calls, counters);
        this.guard = new RequestRateGuard(config.requestRateLimit(), RequestRateGuard.MAX_SOURCES);
    }

    // ------------------------------------------------------------------ input

    /** A UDP datagram from a phone; the caller keeps the buffer. */
    public void onPhoneDatagram(ByteBuf datagram, InetSocketAddress source, long now) {
        SipParseResult r = parser.parseDatagram(datagram);
        try {
            Hop.Phone from = new Hop.Phone(Calls.unscoped(source), false);
            switch (r.kind()) {
                case MESSAGE -> onPhoneMessage(r.message(), from, now);
                case ERROR -> onPhoneError(r.error(), r.message(), r.isRequest(), from, now);
                default -> { }
            }
        } finally {
            r.release();
        }
    }

    /**
     * Whether a request from {@code from} passes the per-address rate limit; a request over it is
     * dropped unanswered and counted, as pike drops a flood's.
     */
    private boolean admitted(Hop.Phone from, long now) {
        boolean pass = guard.admit(from.address().getAddress(), now);
        counters.rateBlocks = guard.blocks();
        if (!pass) {
            counters.rateLimited++;
        }
        return pass;
    }

    /** A message from a phone (a datagram's, or one the TCP framer cut); the caller releases it. */
    public void onPhoneMessage(SipMessage m, Hop.Phone from, long now) {
        try {
            if (m.isRequest()) {
                counters.requestsFromPhones++;
                if (!admitted(from, now)) {
                    return;
                }
                onRequest(m, from, null, now);
            } else {
                counters.responsesFromPhones++;
                responses.onResponse(m, from, null, now);
            }
        } catch (RuntimeException e) {
            fault(e);
        }
    }

    /**
     * The last line of defence: a message the relay's logic could not handle is dropped and counted
     * rather than thrown into the IO shell. The tests require the count to stay zero.
     */
    private void fault(RuntimeException e) {
        counters.faults++;
        lastFault = e;
    }

    private RuntimeException lastFault;

    /** The last fault counted in {@code counters().get("faults")}, for a test's failure message; null if none. */
    public RuntimeException lastFault() {
        return lastFault;
    }

    /** A message that did not parse: a request is answered with the error's status when it can be. */
    public void onPhoneError(SipParseError error, SipMessage partial, boolean isRequest, Hop.Phone from, long now) {
        try {
            if (isRequest && !admitted(from, now)) {
                return;
            }
            if (isRequest && partial != null && !"ACK".equals(partial.method())) {
                ByteBuf answer = ProxyMessages.response(partial, error.status(), words.tag(), List.of(), alloc);
                if (answer != null) {
                    counters.malformedAnswered++;
                    signal.toPhone(from, answer);
                    return;
                }
            }
            counters.malformedDropped++;
        } catch (RuntimeException e) {
            fault(e);
        }
    }

    /** An enveloped message from another node's relay; the caller keeps the buffer. */
    public void onNodeMessage(String node, ByteBuf envelope, long now) {
        counters.messagesFromNodes++;
        int[] ports = RelayEnvelope.decode(envelope);
        if (ports == null) {
            counters.badEnvelopes++;
            return;
        }
        SipParseResult r = parser.parseDatagram(envelope);
        try {
            if (!r.isMessage()) {
                counters.malformedDropped++;
                return;
            }
            Hop.Node from = new Hop.Node(node);
            if (r.message().isRequest()) {
                onRequest(r.message(), from, ports, now);
            } else {
                responses.onResponse(r.message(), from, ports, now);
            }
        } catch (RuntimeException e) {
            fault(e);
        } finally {
            r.release();
        }
    }

    // ------------------------------------------------------------------ requests

    private void onRequest(SipMessage m, Hop from, int[] ports, long now) {
        String method = m.method();
        if (method.equals("ACK")) {
            onAck(m, from, ports, now);
            return;
        }
        if (method.equals("CANCEL")) {
            onCancel(m, from, now);
            return;
        }
        String key = Transactions.serverKey(m, method);
        Transactions.Server existing = transactions.server(key);
        if (existing != null) {
            counters.retransmissionsAbsorbed++;
            if (existing.lastResponse != null) {
                send(existing.source, alloc.buffer().writeBytes(existing.lastResponse), null);
            }
            return;
        }
        boolean initial = m.toTag() == null;
        Transactions.Server server = new Transactions.Server(key, from, method, ProxyMessages.bytes(m.content()),
                initial && method.equals("INVITE"));
        transactions.add(server);
        if (method.equals("REGISTER")) {
            onRegister(m, server, now);
            return;
        }
        int maxForwards = m.maxForwards();
        if (maxForwards == 0) {
            counters.tooManyHops++;
            responses.answer(server, 483, now);
            return;
        }
        String loopHash = ProxyMessages.loopHash(m);
        if (words.looped(m, loopHash)) {
            counters.loopsDetected++;
            responses.answer(server, 482, now);
            return;
        }
        if (method.equals("INVITE") && from instanceof Hop.Phone) {
            // Stops the phone's INVITE retransmissions while the far side is reached (section 16.2).
            responses.provisional(server, 100);
        }
        List<RequestRouting.Target> targets = server.initial ? routing.targets(m, from, now)
                : List.of(routing.route(m, from, now));
        if (targets.get(0).status() != 0) {
            responses.answer(server, targets.get(0).status(), now);
            return;
        }
        Call call = calls.get(m.callId());
        if (server.initial) {
            if (call == null && responses.overloaded()) {
                responses.refuse(server, now);
                return;
            }
            call = calls.create(m.callId(), m.from() == null ? null : m.from().uri(),
                    m.to() == null ? null : m.to().uri(), now);
            call.callerTag = m.fromTag();
            call.callerHop = from;
            call.calleeHop = targets.get(0).hop();
        }
        if (method.equals("BYE") && call != null && call.isCallDialog(m.fromTag(), m.toTag())) {
            calls.end(call, "bye", now);
        }
        List<Transactions.Client> branches = new ArrayList<>(targets.size());
        List<Forward> sent = new ArrayList<>(targets.size());
        for (RequestRouting.Target target : targets) {
            String branch = words.branch(loopHash);
            Forward out = edit(m, from, target, branch, call, ports, now);
            if (out == null) {
                // Media ports ran out: no branch of this call can carry media.
                sent.forEach(f -> f.message().release());
                responses.refuse(server, now);
                return;
            }
            branches.add(forks.branch(branch, server, target.hop(), method, out.message(), now));
            sent.add(out);
        }
        for (int i = 0; i < branches.size(); i++) {
            Transactions.Client client = branches.get(i);
            server.branches.add(client);
            transactions.add(client);
            send(client.destination, sent.get(i).message(), sent.get(i).ports());
        }
    }

    /**
     * The forwarded request: source recorded in the top Via, this relay's Via, Max-Forwards, its
     * Record-Route on a dialog-forming INVITE, its own Route values popped, the new Request-URI, the
     * SDP handled. Null when media ports ran out.
     */
    private Forward edit(SipMessage m, Hop from, RequestRouting.Target target, String branch, Call call,
            int[] ports, long now) {
        SipMessageEditor e = SipMessageEditor.of(m);
        if (from instanceof Hop.Phone p) {
            e.markReceived(p.address().getAddress().getHostAddress(), p.address().getPort());
        }
        boolean tcp = target.hop() instanceof Hop.Phone p && p.tcp();
        e.pushVia(words.via(branch, tcp));
        e.decrementMaxForwards();
        if (m.method().equals("INVITE") && m.toTag() == null) {
            e.addRecordRoute(words.recordRoute());
        }
        ProxyMessages.popRoutes(m, e, target.ownRoutes());
        if (target.requestUri() != null) {
            e.requestUri(target.requestUri());
        }
        int[] envelopePorts = sdp.apply(m, e, from, target.hop(), call, ports, now);
        if (envelopePorts == MessageSdp.REFUSED) {
            return null;
        }
        if (tcp) {
            e.ensureContentLength();
        }
        return new Forward(e.encode(alloc), envelopePorts);
    }

    /** A forwarded message and the overlay ports its envelope carries (null for none). */
    private record Forward(ByteBuf message, int[] ports) {}


    private void onAck(SipMessage m, Hop from, int[] ports, long now) {
        Transactions.Server invite = transactions.server(Transactions.serverKey(m, "ACK"));
        if (invite != null && invite.lastStatus >= 300) {
            // The ACK of a failure answers this hop only (section 17.2.1).
            counters.retransmissionsAbsorbed++;
            return;
        }
        if (m.maxForwards() == 0) {
            return;
        }
        RequestRouting.Target target = routing.route(m, from, now);
        if (target.status() != 0) {
            return;
        }
        Call call = calls.get(m.callId());
        Forward out = edit(m, from, target, words.branch(ProxyMessages.loopHash(m)), call, ports, now);
        if (out != null) {
            send(target.hop(), out.message(), out.ports());
        }
    }

    private void onCancel(SipMessage m, Hop from, long now) {
        Transactions.Server invite = transactions.server(Transactions.serverKey(m, "INVITE"));
        String key = Transactions.serverKey(m, "CANCEL");
        Transactions.Server cancel = new Transactions.Server(key, from, "CANCEL", ProxyMessages.bytes(m.content()),
                false);
        transactions.add(cancel);
        if (invite == null) {
            responses.answer(cancel, 481, now);
            return;
        }
        responses.answer(cancel, 200, now);
        if (invite.lastStatus < 200) {
            invite.cancelled = true;
            forks.cancelAll(invite);
        }
    }

    private void onRegister(SipMessage m, Transactions.Server server, long now) {
        if (!(server.source instanceof Hop.Phone phone)) {
            responses.answer(server, 403, now);
            return;
        }
        counters.registrations++;
        Registrar.Outcome outcome = registrar.register(m, phone.address(), phone.tcp(), now);
        publishRegistrations();
        List<String[]> extra = new ArrayList<>();
        if (outcome.status() == 423) {
            extra.add(new String[] {"Min-Expires", Integer.toString(outcome.minExpires())});
        }
        for (Registrar.Binding b : outcome.bindings()) {
            extra.add(new String[] {"Contact", "<" + b.contactUri() + ">;expires=" + Registrar.seconds(b, now)});
        }
        responses.answer(server, outcome.status(), extra, now);
    }

    /**
     * Publishes the site's registrations across the overlay through {@code d} (installed on the node),
     * so that other relays route calls for them here; and routes calls for others' by it.
     */
    public void directory(RegistrationDirectory d) {
        this.directory = d;
        routing.directory(d);
        publishedVersion = -1;
        publishRegistrations();
    }

    private void publishRegistrations() {
        if (directory != null && registrar.version() != publishedVersion) {
            publishedVersion = registrar.version();
            directory.publish(registrar.addressesOfRecord());
        }
    }

    /** Sends a SIP message to a hop, enveloped for a node; takes ownership of {@code sip}. */
    void send(Hop hop, ByteBuf sip, int[] ports) {
        if (hop instanceof Hop.Phone p) {
            signal.toPhone(p, sip);
            return;
        }
        try {
            signal.toNode(((Hop.Node) hop).name(), RelayEnvelope.encode(sip, ports, alloc));
        } finally {
            sip.release();
        }
    }

    // ------------------------------------------------------------------ time and views

    /** Runs what is due; returns the next instant anything is due. */
    public long onTimer(long now) {
        long next;
        try {
            next = responses.onTimer(now);
        } catch (RuntimeException e) {
            fault(e);
            next = now + config.t1().toNanos();
        }
        next = Math.min(next, transactions.expire(now));
        next = Math.min(next, calls.onTimer(now));
        registrar.expire(now);
        publishRegistrations();
        return next;
    }

    public List<CallStatistics> calls(long now) {
        return calls.snapshot(now);
    }

    public java.util.Map<String, Long> counters() {
        return counters.snapshot();
    }

    /** Receives each call's final record when the relay forgets the call (after its linger). */
    public void onCallEnded(java.util.function.Consumer<CallStatistics> listener) {
        calls.onCallEnded(listener);
    }

    public Registrar registrar() {
        return registrar;
    }

    /** Transactions, calls and media port pairs held: all zero when the relay is idle. */
    public RelayState state() {
        return new RelayState(transactions.serverCount(), transactions.clientCount(), calls.size(),
                calls.pool().capacity() - calls.pool().available(), registrar.size());
    }

    /** An RTP or RTCP packet from a phone on one of the relay's media sockets; the caller keeps the buffer. */
    @Override
    public void onPhoneMedia(int rtpPort, boolean rtcpSocket, ByteBuf packet, InetSocketAddress source, long now) {
        try {
            calls.onPhonePacket(rtpPort, rtcpSocket, packet, source, now);
        } catch (RuntimeException e) {
            fault(e);
        }
    }

    /** A packet from another relay's flow on a stream's overlay port; the caller keeps the buffer. */
    @Override
    public void onNodeMedia(int overlayPort, ByteBuf packet, long flowSequence, long sendTimeNanos, boolean recovered,
            long now) {
        try {
            calls.onNodePacket(overlayPort, packet, flowSequence, sendTimeNanos, recovered, now);
        } catch (RuntimeException e) {
            fault(e);
        }
    }

    /**
     * Frees every call and transaction (the relay stops); each call held gives its final record to the
     * end listener, ended "relay stopped" unless it had ended already.
     */
    public void close(long now) {
        calls.clear(now);
        transactions.clear();
    }

}
