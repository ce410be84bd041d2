//! Ogg pages in, packets out (RFC 3533), as an Icecast publisher sends them: any chunking,
//! garbage before a page skipped, pages with a wrong CRC dropped. Only one logical stream
//! is followed (the first whose first packet the caller accepts): a chained or
//! multiplexed stream's other serials are ignored.
//!
//! Written here rather than taken from a crate: the `ogg` crate reads through
//! `std::io::Read` and blocks on short input, while the ingest pushes whatever bytes
//! arrived; the format is a 27-byte header and a lacing table, less code than the glue.

/// CRC-32 of Ogg: polynomial 0x04C11DB7, initial 0, not reflected, no final xor.
const CRC_TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut r = (i as u32) << 24;
        let mut bit = 0;
        while bit < 8 {
            r = if r & 0x8000_0000 != 0 {
                (r << 1) ^ 0x04C1_1DB7
            } else {
                r << 1
            };
            bit += 1;
        }
        table[i] = r;
        i += 1;
    }
    table
};

fn crc(data: &[u8]) -> u32 {
    data.iter().fold(0u32, |crc, &b| {
        (crc << 8) ^ CRC_TABLE[(((crc >> 24) as u8) ^ b) as usize]
    })
}

const HEADER: usize = 27;

/// One complete packet of the followed stream, with the granule position of the page it
/// ended on when it was the last packet to end there (else `None`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Packet {
    pub data: Vec<u8>,
    pub granule: Option<u64>,
    /// The first packet of its logical stream (its page has the BOS flag).
    pub first: bool,
}

#[derive(Debug, Default)]
pub struct OggReader {
    buf: Vec<u8>,
    /// The serial followed, once a stream's first packet was accepted.
    serial: Option<u32>,
    /// The packet continued on the next page.
    partial: Vec<u8>,
    /// Bytes skipped while looking for a page (garbage or a bad CRC).
    pub skipped: u64,
}

impl OggReader {
    pub fn new() -> Self {
        Self::default()
    }

    /// The followed stream's serial, once chosen.
    pub fn serial(&self) -> Option<u32> {
        self.serial
    }

    /// Takes `bytes` and answers every packet they completed. `accept` is asked about the
    /// first packet of each new logical stream until it says yes; that stream is followed.
    pub fn push(&mut self, bytes: &[u8], mut accept: impl FnMut(&[u8]) -> bool) -> Vec<Packet> {
        // Taken out while its pages are read, as reading one changes the reader's state.
        let mut buf = std::mem::take(&mut self.buf);
        buf.extend_from_slice(bytes);
        let mut out = Vec::new();
        let mut at = 0;
        loop {
            let Some(start) = find(&buf[at..], b"OggS").map(|i| at + i) else {
                // Keep the last 3 bytes: they may begin a capture pattern.
                let keep = buf.len().saturating_sub(3).max(at);
                self.skipped += (keep - at) as u64;
                at = keep;
                break;
            };
            self.skipped += (start - at) as u64;
            at = start;
            let page = &buf[at..];
            if page.len() < HEADER {
                break;
            }
            let segments = usize::from(page[26]);
            if page.len() < HEADER + segments {
                break;
            }
            let lacing = &page[HEADER..HEADER + segments];
            let body: usize = lacing.iter().map(|&l| usize::from(l)).sum();
            let len = HEADER + segments + body;
            if page.len() < len {
                break;
            }
            let mut check = page[..len].to_vec();
            check[22..26].fill(0);
            let stored = u32::from_le_bytes([page[22], page[23], page[24], page[25]]);
            if page[4] != 0 || crc(&check) != stored {
                // Not a page after all (or a damaged one): look past this capture pattern.
                self.skipped += 1;
                at += 1;
                continue;
            }
            self.page(&page[..len], &mut accept, &mut out);
            at += len;
        }
        buf.drain(..at);
        self.buf = buf;
        out
    }

    fn page(&mut self, page: &[u8], accept: &mut impl FnMut(&[u8]) -> bool, out: &mut Vec<Packet>) {
        let flags = page[5];
        let granule = u64::from_le_bytes(page[6..14].try_into().expect("8 bytes"));
        let serial = u32::from_le_bytes(page[14..18].try_into().expect("4 bytes"));
        let segments = usize::from(page[26]);
        let lacing = &page[HEADER..HEADER + segments];
        let bos = flags & 0x02 != 0;
        let continued = flags & 0x01 != 0;
        match self.serial {
            Some(s) if s != serial => return,
            None if !bos => return,
            _ => {}
        }
        if !continued {
            self.partial.clear();
        }
        let mut data = &page[HEADER + segments..];
        // The index in `out` of the last packet ending on this page: it gets the granule.
        let mut last = None;
        for &l in lacing {
            let (piece, rest) = data.split_at(usize::from(l));
            self.partial.extend_from_slice(piece);
            data = rest;
            if l < 255 {
                let packet = std::mem::take(&mut self.partial);
                if self.serial.is_none() {
                    if !accept(&packet) {
                        return;
                    }
                    self.serial = Some(serial);
                    out.push(Packet {
                        data: packet,
                        granule: None,
                        first: true,
                    });
                } else {
                    out.push(Packet {
                        data: packet,
                        granule: None,
                        first: false,
                    });
                }
                last = Some(out.len() - 1);
            }
        }
        // A granule of -1 means no packet ends on this page.
        if let (Some(i), false) = (last, granule == u64::MAX) {
            out[i].granule = Some(granule);
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// One page of `packets` (each < 255 × 255 bytes) as an Ogg muxer writes it.
    pub(crate) fn page(
        serial: u32,
        seq: u32,
        flags: u8,
        granule: u64,
        packets: &[&[u8]],
    ) -> Vec<u8> {
        let mut lacing = Vec::new();
        let mut body = Vec::new();
        for p in packets {
            let mut n = p.len();
            while n >= 255 {
                lacing.push(255u8);
                n -= 255;
            }
            lacing.push(n as u8);
            body.extend_from_slice(p);
        }
        raw_page(serial, seq, flags, granule, &lacing, &body)
    }

    #[test]
    fn the_crc_is_ogg_s_not_zlib_s() {
        // The same polynomial as zlib's, but not reflected and starting at 0.
        assert_eq!(crc(b""), 0);
        assert_eq!(crc(b"123456789"), 0x89A1_897F);
    }

    #[test]
    fn packets_come_out_whole_however_the_bytes_are_chunked() {
        let big = vec![7u8; 600]; // spans lacing values of 255
        let mut stream = b"garbage".to_vec();
        stream.extend(page(9, 0, 0x02, 0, &[b"head"]));
        stream.extend(page(9, 1, 0, 1000, &[b"one", &big, b"three"]));
        for chunk in [1, 5, 64, stream.len()] {
            let mut r = OggReader::new();
            let mut got = Vec::new();
            for piece in stream.chunks(chunk) {
                got.extend(r.push(piece, |p| p == b"head"));
            }
            let data: Vec<&[u8]> = got.iter().map(|p| p.data.as_slice()).collect();
            assert_eq!(
                data,
                [b"head".as_slice(), b"one", &big, b"three"],
                "chunk {chunk}"
            );
            assert!(got[0].first);
            assert_eq!(got[3].granule, Some(1000));
            assert_eq!(got[1].granule, None);
            assert_eq!(r.skipped, 7);
        }
    }

    #[test]
    fn a_packet_continued_on_the_next_page_is_joined() {
        let packet = vec![3u8; 255 * 2];
        let mut stream = page(1, 0, 0x02, 0, &[b"h"]);
        // Page A holds lacing 255, 255 and no terminator: the packet ends on page B (0).
        let a = raw_page(1, 1, 0, u64::MAX, &[255, 255], &packet);
        let b = raw_page(1, 2, 0x01, 42, &[0], &[]);
        stream.extend(a);
        stream.extend(b);
        let mut r = OggReader::new();
        let got = r.push(&stream, |_| true);
        assert_eq!(got.len(), 2);
        assert_eq!(got[1].data, packet);
        assert_eq!(got[1].granule, Some(42));
    }

    /// A page of `lacing` and `body` as given (a lacing table that may lie about the body).
    fn raw_page(
        serial: u32,
        seq: u32,
        flags: u8,
        granule: u64,
        lacing: &[u8],
        body: &[u8],
    ) -> Vec<u8> {
        let mut page = b"OggS".to_vec();
        page.push(0);
        page.push(flags);
        page.extend_from_slice(&granule.to_le_bytes());
        page.extend_from_slice(&serial.to_le_bytes());
        page.extend_from_slice(&seq.to_le_bytes());
        page.extend_from_slice(&[0; 4]);
        page.push(lacing.len() as u8);
        page.extend_from_slice(lacing);
        page.extend_from_slice(body);
        let c = crc(&page);
        page[22..26].copy_from_slice(&c.to_le_bytes());
        page
    }

    #[test]
    fn a_damaged_page_and_other_streams_are_left_out() {
        let mut stream = page(5, 0, 0x02, 0, &[b"video"]);
        stream.extend(page(9, 0, 0x02, 0, &[b"head"]));
        let mut bad = page(9, 1, 0, 10, &[b"broken"]);
        let n = bad.len();
        bad[n - 1] ^= 0xFF;
        stream.extend(bad);
        stream.extend(page(5, 1, 0, 10, &[b"more video"]));
        stream.extend(page(9, 2, 0, 20, &[b"good"]));
        let mut r = OggReader::new();
        let got = r.push(&stream, |p| p == b"head");
        let data: Vec<&[u8]> = got.iter().map(|p| p.data.as_slice()).collect();
        assert_eq!(data, [b"head".as_slice(), b"good"]);
        assert_eq!(r.serial(), Some(9));
    }
}
