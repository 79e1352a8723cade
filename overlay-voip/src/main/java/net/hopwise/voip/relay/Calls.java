package net.hopwise.voip.relay;

import io.netty.buffer.ByteBuf;
import io.netty.util.NetUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import net.hopwise.voip.sdp.Connection;
import net.hopwise.voip.sdp.MediaDescription;
import net.hopwise.voip.sdp.SdpParseResult;
import net.hopwise.voip.sdp.SdpRewrite;
import net.hopwise.voip.sdp.SdpRewriter;
import net.hopwise.voip.sdp.SessionDescription;

/**
 * The calls of one relay and their media: the SDP each way (a phone's SDP is read and its streams
 * get relay ports; an SDP for a phone is rewritten so that media goes to this relay), RTP and RTCP
 * between the phone sockets and the overlay flows, latching, de-duplication and drop-late at the
 * egress, and each call's end (linger after BYE, media timeouts). Sans-IO: IO goes through
 * {@link MediaIo}, time is passed in. Not thread-safe: one relay loop.
 *
 * <p>Over 400 lines because the SDP rewrite, the media path and a call's end all work on one call
 * table and one set of relay ports per call; moving the SDP side into a class of its own is the split
 * when it grows again.
 */
final class Calls {
    private final RelayConfig config;
    private final MediaIo io;
    private final PortPool pool;
    private final Map<String, Call> byId = new LinkedHashMap<>();
    // Every packet finds its stream here: keyed by port without boxing.
    private final io.netty.util.collection.IntObjectHashMap<MediaStream> byRtpPort =
            new io.netty.util.collection.IntObjectHashMap<>();
    private final io.netty.util.collection.IntObjectHashMap<MediaStream> byOverlayPort =
            new io.netty.util.collection.IntObjectHashMap<>();
    private final RelayCounters counters;
    private java.util.function.Consumer<CallStatistics> endListener = c -> { };

    Calls(RelayConfig config, MediaIo io, RelayCounters counters) {
        this.config = config;
        this.io = io;
        this.counters = counters;
        this.pool = new PortPool(config.mediaPortMin(), config.mediaPortMax());
    }

    /** Receives each call's final record as the call is forgotten (a CDR). */
    void onCallEnded(java.util.function.Consumer<CallStatistics> listener) {
        this.endListener = java.util.Objects.requireNonNull(listener, "listener");
    }

    Call get(String callId) {
        return byId.get(callId);
    }

    Call create(String callId, String from, String to, long now) {
        return byId.computeIfAbsent(callId, id -> new Call(id, from, to, now));
    }

    int size() {
        return byId.size();
    }

    /** Calls not yet ended (lingering ones do not count against a maximum of calls). */
    int active() {
        int n = 0;
        for (Call c : byId.values()) {
            if (c.state != Call.State.ENDED) {
                n++;
            }
        }
        return n;
    }

    /** This relay's overlay port per stream of the call (0 where it has none), for an envelope. */
    int[] overlayPorts(Call call) {
        int[] ports = new int[call.streams.size()];
        for (int i = 0; i < ports.length; i++) {
            MediaStream s = call.streams.get(i);
            ports[i] = s == null ? 0 : s.overlayPort;
        }
        return ports;
    }

    /** Gives the call's media ports back now (a call refused at setup: nothing will flow). */
    void releaseMedia(Call call) {
        release(call);
    }

    PortPool pool() {
        return pool;
    }

    /**
     * Reads an SDP a local phone sent (offer or answer): its media addresses, and relay ports for
     * each stream. Returns this relay's overlay port per m= line (0 for a rejected stream), or null
     * when the SDP does not parse or no ports are left (the caller then answers 503 or drops).
     */
    int[] fromPhone(Call call, byte[] sdpBytes, long now) {
        SdpParseResult parsed = SessionDescription.parse(sdpBytes);
        if (!parsed.isOk()) {
            counters.sdpUnreadable++;
            return null;
        }
        SessionDescription sdp = parsed.description();
        List<MediaDescription> media = sdp.media();
        if (media.size() > RelayEnvelope.MAX_STREAMS) {
            // More streams than any call carries: refused rather than holding ports for each.
            counters.sdpUnreadable++;
            return null;
        }
        int[] ports = new int[media.size()];
        for (int i = 0; i < media.size(); i++) {
            MediaDescription md = media.get(i);
            if (md.port() == 0) {
                continue;
            }
            MediaStream s = ensureStream(call, i);
            if (s == null) {
                return null;
            }
            ports[i] = s.overlayPort;
            s.held = sdp.isHeld(i);
            s.payloadTypes.declaredByPhone(md);
            s.localPtime = md.ptime();
            s.applyDeadline(config);
            Connection c = sdp.connection(i);
            if (c == null || c.isUnspecified()) {
                continue;
            }
            InetAddress address = literal(c.host());
            if (address == null) {
                counters.sdpUnreadable++;
                continue;
            }
            InetSocketAddress rtp = new InetSocketAddress(address, md.port());
            InetAddress rtcpHost = md.rtcpAddress() != null ? literal(md.rtcpAddress().host()) : null;
            int rtcpPort = md.rtcpPort() > 0 ? md.rtcpPort() : md.port() + 1;
            if (!rtp.equals(s.sdpRtp)) {
                // A new address (a transfer, a media server): learn the source again.
                s.latchedRtp = null;
                s.latchedRtcp = null;
            }
            s.sdpRtp = rtp;
            s.sdpRtcp = new InetSocketAddress(rtcpHost != null ? rtcpHost : address, rtcpPort);
            s.phoneMux = md.rtcpMux();
        }
        call.lastActivityNanos = now;
        return ports;
    }

    /**
     * As {@link #toPhone}, onto the streams the call has, without taking ports or changing where its
     * streams send: for the answer of a fork's branch that lost, which the caller hangs up at once.
     */
    byte[] toPhoneKeepingTargets(Call call, byte[] sdpBytes) {
        return toPhone(call, sdpBytes, null, null, call.lastActivityNanos);
    }

    /**
     * Rewrites an SDP that came from the other relay for the local phone: every c= to this relay's
     * media address, each m= and a=rtcp to this relay's ports, o= version kept monotonic, ICE lines
     * removed so that media cannot go around the relay. Returns the new SDP, or null when it does not
     * parse or no ports are left. Without {@code remoteNode} (null) the call's streams keep their
     * targets and no port is taken.
     */
    byte[] toPhone(Call call, byte[] sdpBytes, int[] remotePorts, String remoteNode, long now) {
        SdpParseResult parsed = SessionDescription.parse(sdpBytes);
        if (!parsed.isOk()) {
            counters.sdpUnreadable++;
            return null;
        }
        SessionDescription sdp = parsed.description();
        Connection self = config.mediaAddress().indexOf(':') >= 0
                ? Connection.ip6(config.mediaAddress()) : Connection.ip4(config.mediaAddress());
        SdpRewrite rewrite = new SdpRewrite().connection(self).originAddress(self).stripIce(true);
        if (sdp.origin() != null) {
            rewrite.originVersion(call.versions.next(sdp.origin()));
        }
        boolean retarget = remoteNode != null;
        List<MediaDescription> media = sdp.media();
        for (int i = 0; i < media.size(); i++) {
            if (media.get(i).port() == 0) {
                continue;
            }
            MediaStream s = retarget ? ensureStream(call, i) : call.stream(i);
            if (s == null) {
                if (!retarget) {
                    // A stream the call does not have: its line stays as it came.
                    continue;
                }
                return null;
            }
            if (retarget) {
                s.remoteNode = remoteNode;
                s.remotePort = i < remotePorts.length ? remotePorts[i] : 0;
                s.payloadTypes.declaredByFar(media.get(i));
                s.farPtime = media.get(i).ptime();
                s.applyDeadline(config);
            }
            rewrite.mediaPort(i, s.rtpPort).rtcpPort(i, s.rtpPort + 1);
        }
        call.lastActivityNanos = now;
        return SdpRewriter.rewrite(sdp, rewrite);
    }

    private MediaStream ensureStream(Call call, int index) {
        MediaStream s = call.stream(index);
        if (s != null) {
            return s;
        }
        int rtp = pool.acquire(io::bindPhonePorts);
        if (rtp < 0) {
            counters.portsExhausted++;
            return null;
        }
        int upcoming = pool.peek();
        if (upcoming >= 0) {
            io.preparePhonePorts(upcoming);
        }
        int overlay = io.openOverlayPort();
        if (overlay < 0) {
            io.unbindPhonePorts(rtp);
            pool.release(rtp);
            counters.portsExhausted++;
            return null;
        }
        s = new MediaStream(call, index, rtp, overlay, config.mediaDeadline().toNanos());
        call.putStream(s);
        byRtpPort.put(rtp, s);
        byOverlayPort.put(overlay, s);
        return s;
    }

    /** A packet from a phone on a relay socket: latch, count, and send it over the stream's flow. */
    void onPhonePacket(int rtpPort, boolean onRtcpSocket, ByteBuf packet, InetSocketAddress source, long now) {
        MediaStream s = byRtpPort.get(rtpPort);
        if (s == null) {
            counters.mediaUnknownPort++;
            return;
        }
        boolean rtcp = isRtcp(packet);
        if (rtcp) {
            if (s.latchedRtcp == null && onRtcpSocket) {
                s.latchedRtcp = unscoped(source);
            }
            s.rtcpFromPhone++;
            s.phoneReport = RtcpReport.read(packet, s.phoneReport, s.clockRateToPhone());
            s.accessRtt.cameBack(packet, now);
            s.farRtt.passedOut(packet, now);
        } else {
            if (s.latchedRtp == null) {
                s.latchedRtp = unscoped(source);
            }
            if (isRtp(packet)) {
                s.countFromPhone(packet, now);
            }
        }
        touch(s, now);
        if (s.remoteNode == null || s.remotePort == 0) {
            s.noTarget++;
            return;
        }
        if (io.sendToNode(s.overlayPort, s.remoteNode, s.remotePort, packet)) {
            s.sentToNode++;
        } else {
            s.refusedByNode++;
        }
    }

    /** A packet from the other relay: de-duplicate, drop if late, send it to the phone. */
    void onNodePacket(int overlayPort, ByteBuf packet, long flowSequence, long sendTimeNanos, boolean recovered,
            long now) {
        MediaStream s = byOverlayPort.get(overlayPort);
        if (s == null) {
            counters.mediaUnknownPort++;
            return;
        }
        boolean rtcp = isRtcp(packet);
        ReceptionStats.Verdict v = s.toPhone.record(flowSequence, now - sendTimeNanos, packet.readableBytes(),
                recovered);
        touch(s, now);
        if (v != ReceptionStats.Verdict.FORWARD) {
            return;
        }
        InetSocketAddress to = rtcp ? s.rtcpTarget() : s.rtpTarget();
        if (to == null) {
            s.noTarget++;
            return;
        }
        if (rtcp) {
            s.rtcpToPhone++;
            s.accessRtt.passedOut(packet, now);
            s.farRtt.cameBack(packet, now);
        } else if (isRtp(packet)) {
            s.sendingToPhone(packet);
        }
        s.deliveredToPhone++;
        io.sendToPhone(s.rtpPort, rtcp && !s.phoneMux, to, packet);
    }

    private static void touch(MediaStream s, long now) {
        s.call.lastActivityNanos = now;
    }

    /** An RTP header to read: version 2 and the 12 bytes of the fixed header. */
    private static boolean isRtp(ByteBuf packet) {
        return packet.readableBytes() >= 12 && (packet.getUnsignedByte(packet.readerIndex()) >> 6) == 2;
    }

    /** RTCP packet types 192-223 in the second byte (RFC 5761 section 4): how one flow carries both. */
    static boolean isRtcp(ByteBuf packet) {
        if (packet.readableBytes() < 2) {
            return false;
        }
        int pt = packet.getUnsignedByte(packet.readerIndex() + 1);
        return pt >= 192 && pt <= 223;
    }

    /** The call is over: it lingers (absorbing retransmissions and stray media), then goes. */
    void end(Call call, String reason, long now) {
        if (call.state != Call.State.ENDED) {
            call.state = Call.State.ENDED;
            call.endedAtNanos = now;
            call.endReason = reason;
        }
    }

    /** Ends lapsed calls; returns the next instant something is due (MAX_VALUE when nothing is). */
    long onTimer(long now) {
        long next = Long.MAX_VALUE;
        long linger = config.linger().toNanos();
        for (Iterator<Call> it = byId.values().iterator(); it.hasNext(); ) {
            Call c = it.next();
            long due;
            if (c.state == Call.State.ENDED) {
                due = c.endedAtNanos + linger;
            } else {
                long timeout = (c.state == Call.State.SETUP ? config.setupTimeout()
                        : c.onHold() ? config.heldMediaTimeout() : config.mediaTimeout()).toNanos();
                due = c.lastActivityNanos + timeout;
                if (now - due >= 0) {
                    counters.mediaTimeouts++;
                    end(c, "media timeout", now);
                }
            }
            if (now - due >= 0) {
                it.remove();
                forget(c, now);
            } else {
                next = Math.min(next, due);
            }
        }
        return next;
    }

    /** Frees the call's ports and hands its final record to the listener. */
    private void forget(Call c, long now) {
        CallStatistics last = snapshot(c, now);
        release(c);
        try {
            endListener.accept(last);
        } catch (RuntimeException e) {
            counters.listenerFailures++;
        }
    }

    private void release(Call c) {
        for (MediaStream s : c.streams) {
            if (s != null) {
                byRtpPort.remove(s.rtpPort);
                byOverlayPort.remove(s.overlayPort);
                io.unbindPhonePorts(s.rtpPort);
                io.closeOverlayPort(s.overlayPort);
                pool.release(s.rtpPort);
            }
        }
        c.streams.clear();
    }

    /**
     * Ends and releases every call (the relay stops): each gives its final record as if it had
     * lapsed, ended "relay stopped" unless it had ended already, so that no call goes unrecorded.
     */
    void clear(long now) {
        List<Call> all = new ArrayList<>(byId.values());
        byId.clear();
        for (Call c : all) {
            end(c, "relay stopped", now);
            forget(c, now);
        }
    }

    Collection<Call> all() {
        return byId.values();
    }

    List<CallStatistics> snapshot(long now) {
        List<CallStatistics> out = new ArrayList<>();
        for (Call c : byId.values()) {
            out.add(snapshot(c, now));
        }
        return out;
    }

    static CallStatistics snapshot(Call c, long now) {
        List<StreamStatistics> streams = new ArrayList<>();
        for (MediaStream s : c.streams) {
            if (s != null) {
                streams.add(s.snapshot());
            }
        }
        long end = c.state == Call.State.ENDED ? c.endedAtNanos : now;
        return new CallStatistics(c.callId, c.from, c.to, c.state.name(), String.valueOf(c.callerHop),
                String.valueOf(c.calleeHop), TimeUnit.NANOSECONDS.toMillis(end - c.createdNanos),
                TimeUnit.NANOSECONDS.toMillis(now - end), c.endReason, streams);
    }

    /**
     * The address without a zero IPv6 scope: the epoll transport reports a global or loopback IPv6
     * sender with scope 0 ({@code ::1%0}), which names the same address but would read differently
     * in the call's record than the address of the phone's SDP. Done once per latch, not per packet.
     */
    static InetSocketAddress unscoped(InetSocketAddress a) {
        if (a.getAddress() instanceof java.net.Inet6Address v6 && v6.getScopeId() == 0
                && a.getAddress().getHostAddress().indexOf('%') >= 0) {
            try {
                return new InetSocketAddress(InetAddress.getByAddress(v6.getAddress()), a.getPort());
            } catch (UnknownHostException e) {
                return a;
            }
        }
        return a;
    }

    /** An IP literal as an address, without name resolution; null for anything else. */
    static InetAddress literal(String host) {
        byte[] bytes = NetUtil.createByteArrayFromIpAddressString(host);
        if (bytes == null) {
            return null;
        }
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
