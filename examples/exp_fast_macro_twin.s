# The non-macro twin of exp_fast_macro.s: the same operations on the same 16
# Dst rows of FP32, issued one instruction at a time (tt-llk's
# DISABLE_SFPLOADMACRO path of the FAST_APPROX + CLAMP_NEGATIVE exp).
# Per 32-lane row group:
#   L0 = x;  L0 = max(L0, -88.5);  L0 = A*L0 + (B-C);  L0 = uint16(round(L0));  L0 <<= 15;  store
# It leaves Dst bit-identical to the macro kernel.

.fp32_dest 1

TTI_SFPLOADI(0, 0xA, 0x0000);           # L14 = -88.5
TTI_SFPLOADI(0, 0x8, 0xC2B1);
TTI_SFPCONFIG(0, 14, 0);
TTI_SFPLOADI(0, 0xA, 0xAA3B);           # L12 = A = 256/ln 2
TTI_SFPLOADI(0, 0x8, 0x43B8);
TTI_SFPCONFIG(0, 12, 0);
TTI_SFPLOADI(0, 0xA, 0xE9A3);           # L13 = B - C = 32500.818
TTI_SFPLOADI(0, 0x8, 0x46FD);
TTI_SFPCONFIG(0, 13, 0);

# Mod1 = 9 of SFPSWAP is outside the named modes: VD gets the maximum in every lane.
# The SFPNOP after SFPMAD keeps SFPSTOCHRND from reading L0 before the MAD
# result is written; tt-llk's twin omits it.
TTI_SFPLOAD(0, 0, 3, 0);
TTI_SFPSWAP(0, 14, 0, 9);
TTI_SFPMAD(12, 0, 13, 0, 0);
TTI_SFPNOP;
TTI_SFP_STOCH_RND(0, 0, 0, 0, 0, 6);
TTI_SFPSHFT(15, 0, 0, 1);
TTI_SFPSTORE(0, 0, 3, 0);

TTI_SFPLOAD(0, 0, 3, 2);
TTI_SFPSWAP(0, 14, 0, 9);
TTI_SFPMAD(12, 0, 13, 0, 0);
TTI_SFPNOP;
TTI_SFP_STOCH_RND(0, 0, 0, 0, 0, 6);
TTI_SFPSHFT(15, 0, 0, 1);
TTI_SFPSTORE(0, 0, 3, 2);

TTI_SFPLOAD(0, 0, 3, 4);
TTI_SFPSWAP(0, 14, 0, 9);
TTI_SFPMAD(12, 0, 13, 0, 0);
TTI_SFPNOP;
TTI_SFP_STOCH_RND(0, 0, 0, 0, 0, 6);
TTI_SFPSHFT(15, 0, 0, 1);
TTI_SFPSTORE(0, 0, 3, 4);

TTI_SFPLOAD(0, 0, 3, 6);
TTI_SFPSWAP(0, 14, 0, 9);
TTI_SFPMAD(12, 0, 13, 0, 0);
TTI_SFPNOP;
TTI_SFP_STOCH_RND(0, 0, 0, 0, 0, 6);
TTI_SFPSHFT(15, 0, 0, 1);
TTI_SFPSTORE(0, 0, 3, 6);

TTI_SFPLOAD(0, 0, 3, 8);
TTI_SFPSWAP(0, 14, 0, 9);
TTI_SFPMAD(12, 0, 13, 0, 0);
TTI_SFPNOP;
TTI_SFP_STOCH_RND(0, 0, 0, 0, 0, 6);
TTI_SFPSHFT(15, 0, 0, 1);
TTI_SFPSTORE(0, 0, 3, 8);

TTI_SFPLOAD(0, 0, 3, 10);
TTI_SFPSWAP(0, 14, 0, 9);
TTI_SFPMAD(12, 0, 13, 0, 0);
TTI_SFPNOP;
TTI_SFP_STOCH_RND(0, 0, 0, 0, 0, 6);
TTI_SFPSHFT(15, 0, 0, 1);
TTI_SFPSTORE(0, 0, 3, 10);

TTI_SFPLOAD(0, 0, 3, 12);
TTI_SFPSWAP(0, 14, 0, 9);
TTI_SFPMAD(12, 0, 13, 0, 0);
TTI_SFPNOP;
TTI_SFP_STOCH_RND(0, 0, 0, 0, 0, 6);
TTI_SFPSHFT(15, 0, 0, 1);
TTI_SFPSTORE(0, 0, 3, 12);

TTI_SFPLOAD(0, 0, 3, 14);
TTI_SFPSWAP(0, 14, 0, 9);
TTI_SFPMAD(12, 0, 13, 0, 0);
TTI_SFPNOP;
TTI_SFP_STOCH_RND(0, 0, 0, 0, 0, 6);
TTI_SFPSHFT(15, 0, 0, 1);
TTI_SFPSTORE(0, 0, 3, 14);
