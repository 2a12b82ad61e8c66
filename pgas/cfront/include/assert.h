#ifndef _ASSERT_H
#define _ASSERT_H
void __cfront_assert(int cond);
#define assert(e) __cfront_assert(e)
#endif
