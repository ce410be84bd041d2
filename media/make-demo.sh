#!/usr/bin/env bash
# Regenerates demo.aac, the demo concert's audio (`make run` pushes it on a loop with
# `encore push`): a synthesised 16-second arpeggio over a bass line, so it is ours to
# ship. AAC-LC in ADTS, 48 kHz stereo, 96 kbit/s.
set -euo pipefail
cd "$(dirname "$0")"
# Notes change every quarter second; each fades to silence before the next (no clicks). Semitones above A3 (220 Hz).
NOTES="0 4 7 12 7 4 0 4  -2 2 5 10 5 2 -2 2  -4 0 3 8 3 0 -4 0  -5 -1 2 7 2 -1 -5 -1"
expr="0"
i=0
for n in $NOTES; do
  expr="if(eq(mod(floor(t*4),32),$i),$n,$expr)"
  i=$((i + 1))
done
bass="if(lt(mod(t,8),2),-24,if(lt(mod(t,8),4),-26,if(lt(mod(t,8),6),-28,-29)))"
lead="0.3*(1-4*mod(t,0.25))*min(1,mod(t,0.25)*200)*sin(2*PI*220*pow(2,($expr)/12)*t)"
low="0.18*min(1,min(20*mod(t,2),20*(2-mod(t,2))))*sin(2*PI*220*pow(2,($bass)/12)*t)"
ffmpeg -hide_banner -loglevel error -y -f lavfi \
  -i "aevalsrc=exprs='$lead+$low|$lead*0.8+$low':sample_rate=48000:duration=16" \
  -af "aecho=0.8:0.6:180:0.3" -c:a aac -b:a 96k -f adts demo.aac

# The demo concerts' pictures (1200×675 JPEG, ours too): stage lights over a navy-to-plum
# sky for "Opening Night", rings of sound on teal for the upcoming "Late Set".
spot() { # x y width: a soft round light
  echo "exp(-(pow(X-$1,2)+pow(Y-$2,2))/$3)"
}
lights="($(spot 300 180 9000)+$(spot 600 120 12000)+$(spot 900 180 9000))"
beams="(exp(-pow((X-300)-(Y-180)*0.35,2)/4000)+exp(-pow(X-600,2)/6000)+exp(-pow((X-900)+(Y-180)*0.35,2)/4000))*min(1,max(0,(Y-120)/120))*0.35"
stage="gt(Y,560)*0.25*(1-abs(X-600)/900)"
ffmpeg -hide_banner -loglevel error -y -f lavfi -i "color=black:s=1200x675:d=1" -frames:v 1 \
  -vf "geq=r='min(255,20+60*Y/675+230*$lights+180*$beams+120*$stage)':g='min(255,18+10*Y/675+170*$lights+120*$beams+80*$stage)':b='min(255,60+50*Y/675+120*$lights+150*$beams+60*$stage)'" \
  -q:v 4 opening-night.jpg
rings="pow(0.5+0.5*cos(hypot(X-840,Y-420)/14),4)*exp(-hypot(X-840,Y-420)/360)"
ffmpeg -hide_banner -loglevel error -y -f lavfi -i "color=black:s=1200x675:d=1" -frames:v 1 \
  -vf "geq=r='min(255,12+40*X/1200+150*$rings)':g='min(255,60+60*Y/675+190*$rings)':b='min(255,80+40*X/1200+170*$rings)'" \
  -q:v 4 late-set.jpg
