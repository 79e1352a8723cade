package net.hopwise.voip.relay;

import io.netty.buffer.ByteBuf;

/** Where the relay's SIP goes: to a phone of its site, or to the relay of another node. */
public interface SignalIo {
    /** Sends a SIP message to a phone (over UDP, or the TCP connection to that address); takes ownership. */
    void toPhone(Hop.Phone to, ByteBuf message);

    /** Sends an enveloped SIP message ({@link RelayEnvelope}) to another node's relay; takes ownership. */
    void toNode(String node, ByteBuf envelope);
}
