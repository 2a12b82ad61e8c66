#ifndef _GETOPT_H
#define _GETOPT_H
#include <unistd.h>
#endif
