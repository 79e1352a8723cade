package net.hopwise.overlay.node;

import io.netty.buffer.ByteBuf;
import net.hopwise.overlay.realtime.RealTimeLinkReceiver;
import net.hopwise.overlay.realtime.RealTimeLinkSender;

/**
 * The real-time channel of one overlay link as the engine keeps it: the sending end towards the
 * neighbour (its history holds datagrams ready to resend) and the receiving end from it.
 *
 * <p>Counters are plain fields written on the event loop and read from anywhere by meters.
 */
public final class RealTimeChannel {
    final RealTimeLinkSender<ByteBuf> sender;
    final RealTimeLinkReceiver receiver;

    RealTimeChannel(RealTimeLinkSender<ByteBuf> sender, RealTimeLinkReceiver receiver) {
        this.sender = sender;
        this.receiver = receiver;
    }

    /** Data packets sent on the link's real-time channel (first copies). */
    public long dataPacketsSent() {
        return sender.dataPackets();
    }

    public long retransmissions() {
        return sender.retransmissions();
    }

    public long nacksReceived() {
        return sender.nacksReceived();
    }

    public long nacksSent() {
        return receiver.nacksSent();
    }

    /** Requested packets no longer in the history, so not resent. */
    public long refusedExpired() {
        return sender.refusedExpired();
    }

    /** Requested packets not resent for lack of tokens. */
    public long refusedTokens() {
        return sender.refusedTokens();
    }

    /** New packets received on the channel. */
    public long packetsReceived() {
        return receiver.packets();
    }

    /** Received packets that filled a gap: retransmissions (or reordered originals). */
    public long recovered() {
        return receiver.recovered();
    }

    public long duplicates() {
        return receiver.duplicates();
    }

    void close() {
        sender.close();
    }
}
