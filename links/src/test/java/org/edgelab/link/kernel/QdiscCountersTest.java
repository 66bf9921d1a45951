package org.edgelab.link.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class QdiscCountersTest {
    @Test
    void readsSentBytesPacketsAndDropsOfTc() {
        String tc = """
                qdisc tbf 801b: root refcnt 3 rate 200Mbit burst 128Kb lat 14.8ms\s
                 Sent 66027447 bytes 1116 pkt (dropped 382, overlimits 2009 requeues 0)\s
                 backlog 131098b 1p requeues 0
                """;
        assertThat(QdiscCounters.parse(tc)).isEqualTo(new QdiscCounters(66027447, 1116, 382));
    }

    @Test
    void outputWithoutCountersIsAnError() {
        assertThatThrownBy(() -> QdiscCounters.parse("Cannot find device \"el0\"")).hasMessageContaining("Cannot find device");
    }
    @Test
    void readsTheTransmitCountersOfADeviceWithoutAShaper() {
        String ip = """
                3: el0@if4: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 65535 qdisc noqueue state UP mode DEFAULT group default qlen 1000
                    link/ether 6a:1f:3c:00:00:02 brd ff:ff:ff:ff:ff:ff link-netns el-1-1-hub
                    RX:     bytes   packets errors dropped  missed   mcast
                        1234567      910      0       0       0       0
                    TX:     bytes   packets errors dropped carrier collsns
                     7842433016   119665      0       3       0       0
                """;
        assertThat(QdiscCounters.parseDevice(ip)).isEqualTo(new QdiscCounters(7842433016L, 119665, 3));
        assertThatThrownBy(() -> QdiscCounters.parseDevice("Device \"el0\" does not exist.")).hasMessageContaining("does not exist");
    }
}
