// Stand-in of tt-llk's sanitizer API for the `sfpu llk` front end: nothing to check here.
#pragma once
#include "llk_stand_in.h"
