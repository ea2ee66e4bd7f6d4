// capture/mlir/fingerprint: equal for untouched IR, different after each kind
// of in-place edit a pass can make (the cases a no-op check must not miss).
#include "capture/mlir/fingerprint.h"

#include <gtest/gtest.h>
#include <mlir/Dialect/Arith/IR/Arith.h>
#include <mlir/Dialect/Func/IR/FuncOps.h>
#include <mlir/IR/Builders.h>
#include <mlir/IR/BuiltinOps.h>
#include <mlir/IR/MLIRContext.h>
#include <mlir/Parser/Parser.h>

using lowertrace::mlir::fingerprint;

namespace {

const char *kIR = R"mlir(
func.func @f(%a: i32, %b: i32) -> i32 {
  %c = arith.constant 7 : i32
  %x = arith.addi %a, %c : i32
  %y = arith.muli %x, %b : i32
  return %y : i32
}
func.func @g(%a: i32) -> i32 {
  return %a : i32
}
)mlir";

struct FingerprintTest : ::testing::Test {
  void SetUp() override {
    ctx.loadDialect<::mlir::func::FuncDialect, ::mlir::arith::ArithDialect>();
    module = ::mlir::parseSourceString<::mlir::ModuleOp>(kIR, &ctx);
    ASSERT_TRUE(module);
    f = module->lookupSymbol<::mlir::func::FuncOp>("f");
    for (auto &op : f.getBody().front()) {
      if (auto c = llvm::dyn_cast<::mlir::arith::ConstantOp>(op)) cst = c;
      if (auto a = llvm::dyn_cast<::mlir::arith::AddIOp>(op)) add = a;
      if (auto m = llvm::dyn_cast<::mlir::arith::MulIOp>(op)) mul = m;
    }
    ASSERT_TRUE(cst && add && mul);
    before = fingerprint(module->getOperation());
  }
  bool changed() { return !(fingerprint(module->getOperation()) == before); }

  ::mlir::MLIRContext ctx;
  ::mlir::OwningOpRef<::mlir::ModuleOp> module;
  ::mlir::func::FuncOp f;
  ::mlir::arith::ConstantOp cst;
  ::mlir::arith::AddIOp add;
  ::mlir::arith::MulIOp mul;
  lowertrace::mlir::Fingerprint before;
};

TEST_F(FingerprintTest, StableWhenNothingChanged) {
  EXPECT_FALSE(changed());
  EXPECT_EQ(fingerprint(f), fingerprint(f));
  EXPECT_FALSE(fingerprint(f) == fingerprint(module->lookupSymbol("g")));
}

TEST_F(FingerprintTest, SeesADiscardableAttribute) {
  add->setAttr("lt.mark", ::mlir::UnitAttr::get(&ctx));
  EXPECT_TRUE(changed());
}

TEST_F(FingerprintTest, SeesAPropertyChange) {
  // arith.constant keeps its value as a property, not in the attribute dictionary.
  ::mlir::OpBuilder b(&ctx);
  cst.setValueAttr(b.getI32IntegerAttr(8));
  EXPECT_TRUE(changed());
}

TEST_F(FingerprintTest, SeesSwappedOperands) {
  ::mlir::Value l = add.getLhs(), r = add.getRhs();
  add->setOperands({r, l});
  EXPECT_TRUE(changed());
}

TEST_F(FingerprintTest, SeesAResultRetypedInPlace) {
  mul.getResult().setType(::mlir::IntegerType::get(&ctx, 64));
  EXPECT_TRUE(changed());
}

TEST_F(FingerprintTest, SeesABlockArgumentRetypedInPlace) {
  f.getBody().front().getArgument(1).setType(::mlir::IntegerType::get(&ctx, 16));
  EXPECT_TRUE(changed());
}

TEST_F(FingerprintTest, SeesAMovedOp) {
  mul->moveBefore(add);
  EXPECT_TRUE(changed());
}

TEST_F(FingerprintTest, SeesAnErasedOp) {
  auto g = module->lookupSymbol<::mlir::func::FuncOp>("g");
  g->erase();
  EXPECT_TRUE(changed());
}

TEST_F(FingerprintTest, SeesALocationChange) {
  add->setLoc(::mlir::FileLineColLoc::get(&ctx, "x.mlir", 3, 4));
  EXPECT_TRUE(changed());
}

}  // namespace
